// HTTP calls (docs/protocol.md) and the WebSocket connection with automatic reconnection.

/** @typedef {{id: number, name: string, guest: boolean}} User */
/** @typedef {{id: string, family: string, tier: string, name: string, english: string, stake: number, entry_min: number, entry_max: number}} Room */
/** @typedef {{table: string, seat: number, invite?: string|null, info: TableInfo}} SeatOut */
/** @typedef {{name: string|null, bot: string|null, online: boolean, ready: boolean}} SeatInfo */
/** @typedef {{id: string, kind: string, family: string, options: Record<string, any>, room: string|null, invite?: string|null, seats: SeatInfo[], hand: number, game: number|null, running: boolean, closed: boolean}} TableInfo */
/** @typedef {{id: number, ruleset: string, room: string|null, players: Array<string|null>, finished: boolean, summary: string|null, created_at: string, finished_at: string|null}} GameOut */

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** @returns {string|null} */
export function token() {
  return localStorage.getItem("erren.token");
}

/** @param {string|null} value */
export function setToken(value) {
  if (value) localStorage.setItem("erren.token", value);
  else localStorage.removeItem("erren.token");
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, signal) {
  /** @type {Record<string, string>} */
  const headers = {};
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    let msg = res.statusText;
    if (data && typeof data.detail === "string") msg = data.detail;
    else if (data && Array.isArray(data.detail)) msg = data.detail.map((/** @type {any} */ d) => d.msg).join("; ");
    throw new ApiError(res.status, msg);
  }
  return data;
}

/** @typedef {"connecting"|"open"|"reconnecting"|"closed"} ConnState */

/**
 * One WebSocket to /ws that comes back by itself: on every (re)open it calls `onOpen`, which
 * sends the `join` with the last event number seen.
 */
export class Connection {
  /**
   * @param {(msg: any) => void} onMessage
   * @param {(state: ConnState) => void} onState
   * @param {() => void} onOpen
   */
  constructor(onMessage, onState, onOpen) {
    this.onMessage = onMessage;
    this.onState = onState;
    this.onOpen = onOpen;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {number|undefined} */
    this.pinger = undefined;
    /** @type {number|undefined} */
    this.retry = undefined;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(token() || "")}`);
    this.ws = ws;
    this.onState(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      this.attempt = 0;
      this.onState("open");
      this.pinger = window.setInterval(() => this.send({ type: "ping" }), 15000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (msg.type === "welcome") this.onOpen();
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      window.clearInterval(this.pinger);
      if (this.stopped || ev.code === 4401 || ev.code === 1008) {
        this.onState("closed");
        return;
      }
      this.attempt += 1;
      this.onState("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt, 5));
      this.retry = window.setTimeout(() => this.connect(), delay);
    };
  }

  /** @param {Record<string, unknown>} msg @returns {boolean} sent */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Drop the socket now (tests and the "offline" simulation use it); it reconnects. */
  drop() {
    this.ws?.close();
  }

  stop() {
    this.stopped = true;
    window.clearTimeout(this.retry);
    window.clearInterval(this.pinger);
    this.ws?.close();
  }
}
