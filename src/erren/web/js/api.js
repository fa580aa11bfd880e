// HTTP calls (docs/protocol.md) and the WebSocket connection with automatic reconnection.

/** @typedef {{id: number, name: string, guest: boolean}} User */
/** A bean room; its stake is beans per one point of its family, `unit` (番 fan, 分 point).
 * @typedef {{id: string, family: string, tier: string, name: string, english: string, stake: number, unit: {zh: string, en: string, en_many?: string}, entry_min: number, entry_max: number, account_needed?: boolean, escape_points?: number, escape_beans?: number}} Room */
/** @typedef {{table: string, seat: number, invite?: string|null, info: TableInfo}} SeatOut */
/** A seat: a computer's has `bot` (its bot) and `level` (novice/normal/strong/master; the name
 * shown comes from it, in the player's language). @typedef {{name: string|null, bot: string|null, level?: string|null, online: boolean, ready: boolean}} SeatInfo */
/** @typedef {{id: string, kind: string, family: string, options: Record<string, any>, room: string|null, invite?: string|null, seats: SeatInfo[], hand: number, game: number|null, running: boolean, closed: boolean}} TableInfo */
/** How a game ended (docs/records.md, `outcome`; `kind` "called-off" for a hand called off).
 * @typedef {{kind: string, hand?: number, winner?: number|null, loser?: number|null, how?: string|null, points?: number, deltas?: number[], beans?: number[]}} Outcome */
/** @typedef {{id: number, ruleset: string, room: string|null, players: Array<string|null>, finished: boolean, summary: string|null, created_at: string, finished_at: string|null, seat?: number|null, outcome?: Outcome|null}} GameOut */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message the server's English sentence
   * @param {string|null} [code] the stable code to render in the player's language
   * @param {Record<string, unknown>} [params] what the code is worded with
   */
  constructor(status, message, code = null, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
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
    const params = data && data.params && typeof data.params === "object" ? data.params : {};
    throw new ApiError(res.status, msg, data && typeof data.code === "string" ? data.code : "http-error", data && typeof data.code === "string" ? params : { status: res.status });
  }
  return data;
}

/**
 * The socket's state as a player meets it: `replaced` (the seat was taken over by another tab of
 * this account) and `logged-out` (the token was revoked) are final, nothing reconnects.
 * @typedef {"connecting"|"open"|"reconnecting"|"closed"|"replaced"|"logged-out"} ConnState
 */

/** How often a ping goes out, and how long without any answer counts as a lost connection. */
export const PING_EVERY_MS = 2000;
export const LOST_AFTER_MS = 4000;

/**
 * One WebSocket to /ws that comes back by itself. The token goes in the first message
 * (`{"type": "auth"}`), never in the address. A ping goes out every 2 s; when nothing has come
 * back for 4 s (a half-open connection: a sleeping laptop, a dead Wi-Fi, a stalled server) the
 * socket is given up and a new one opened. On every `welcome` it calls `onOpen`, which sends the
 * `join` with the last event number seen.
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
    /** @type {ConnState} */
    this.state = "connecting";
    this.welcomed = false;
    /** when the oldest unanswered ping (or the unanswered auth) went out; null: all answered */
    /** @type {number|null} */
    this.waitingSince = null;
    this.lastPing = 0;
    /** @type {number|undefined} */
    this.ticker = undefined;
    /** @type {number|undefined} */
    this.retry = undefined;
    this.connect();
  }

  /** @param {ConnState} state */
  setState(state) {
    this.state = state;
    this.onState(state);
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    this.welcomed = false;
    this.waitingSince = Date.now();
    this.setState(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      this.waitingSince = Date.now();
      ws.send(JSON.stringify({ type: "auth", token: token() || "" }));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.waitingSince = null;
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (msg.type === "pong") return;
      if (msg.type === "replaced") {
        this.finish("replaced");
        this.onMessage(msg);
        return;
      }
      if (msg.type === "error" && (msg.code === "logged-out" || msg.code === "auth")) {
        this.finish("logged-out");
        this.onMessage(msg);
        return;
      }
      if (msg.type === "error" && msg.code === "too-many-connections") {
        this.finish("closed"); // reconnecting would only be refused again
        this.onMessage(msg);
        return;
      }
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.setState("open");
        this.onOpen();
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws || this.stopped) return;
      if (ev.code === 4409) this.finish("replaced");
      else if (ev.code === 4401) this.finish("logged-out");
      else if (ev.code === 1008 || ev.code === 4429) this.finish("closed");
      else this.lost();
    };
    window.clearInterval(this.ticker);
    this.ticker = window.setInterval(() => this.tick(), 500);
  }

  /** Ping while open; give the socket up when nothing came back in time. */
  tick() {
    const now = Date.now();
    if (this.waitingSince !== null && now - this.waitingSince > LOST_AFTER_MS) {
      this.lost();
      return;
    }
    if (this.welcomed && now - this.lastPing >= PING_EVERY_MS && this.send({ type: "ping" })) {
      this.lastPing = now;
      if (this.waitingSince === null) this.waitingSince = now;
    }
  }

  /** The connection is gone (or half-open): drop it without waiting for a close handshake and
   * open a new one after a short pause. */
  lost() {
    if (this.stopped) return;
    const old = this.ws;
    this.ws = null;
    this.welcomed = false;
    this.waitingSince = null;
    window.clearInterval(this.ticker);
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try {
        old.close();
      } catch {
        /* already closed */
      }
    }
    this.attempt += 1;
    this.setState("reconnecting");
    window.clearTimeout(this.retry);
    const delay = Math.min(3000, 250 * 2 ** Math.min(this.attempt - 1, 4));
    this.retry = window.setTimeout(() => this.connect(), delay);
  }

  /** A final state: nothing reconnects. @param {ConnState} state */
  finish(state) {
    this.stopped = true;
    window.clearTimeout(this.retry);
    window.clearInterval(this.ticker);
    const old = this.ws;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      old.close();
    }
    this.setState(state);
  }

  /** True when the message went out on a greeted socket (it may still be lost on the way).
   * @param {Record<string, unknown>} msg @returns {boolean} */
  send(msg) {
    if (this.ws && this.welcomed && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Drop the socket now (tests and the "offline" simulation use it); it reconnects. */
  drop() {
    this.lost();
  }

  stop() {
    this.stopped = true;
    window.clearTimeout(this.retry);
    window.clearInterval(this.ticker);
    const old = this.ws;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      old.close();
    }
  }
}
