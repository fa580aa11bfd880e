// Watching a table (观战, #/watch/ID): the table's public view, read-only — both rivers, the
// melds, both hands face down, the wall, whose turn — drawn by the table's own board renderer
// (board.js) with no hand actions; at the hand's end both hands are shown open. The server
// sends a spectator nothing else (docs/protocol.md, Spectators); at a bean-room table the view
// runs a few moves behind the game (the delay is shown).

import { Connection } from "./api.js";
import { boardEl, familyBoard } from "./board.js";
import { closedEl } from "./notices.js";
import { h } from "./dom.js";
import { describeLast, isEngineEvent } from "./events.js";
import { familyName } from "./families.js";
import { errorText, getLang, playerName, t } from "./i18n.js";
import { parseHand } from "./notation.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {import("./board.js").BoardView} BoardView */

export class WatchView {
  /** @param {HTMLElement} main @param {string} tableId @param {() => void} exit */
  constructor(main, tableId, exit) {
    this.main = main;
    this.tableId = tableId;
    this.exit = exit;
    /** @type {Record<string, any>|null} */
    this.info = null;
    /** @type {Obs|null} */
    this.state = null;
    /** @type {any[]} */
    this.events = [];
    /** @type {number|null} */
    this.game = null;
    this.lastN = -1;
    /** @type {any} */
    this.end = null;
    this.delay = 0;
    this.watchers = 0;
    /** @type {any} */
    this.refused = null;
    /** @type {any} */
    this.closed = null;
    this.connState = "connecting";
    this.conn = new Connection(
      (msg) => this.onMessage(msg),
      (state) => {
        this.connState = state;
        this.render();
      },
      () => this.onOpen(),
    );
    this.render();
  }

  /** Watch (again, from the last event seen after a reconnection). */
  onOpen() {
    /** @type {Record<string, unknown>} */
    const msg = { type: "watch", table: this.tableId };
    if (this.game !== null && this.lastN >= 0) Object.assign(msg, { game: this.game, since: this.lastN });
    this.conn.send(msg);
  }

  /** @param {any} msg */
  onMessage(msg) {
    switch (msg.type) {
      case "watching":
        this.delay = Number(msg.delay) || 0;
        break;
      case "watchers":
        this.watchers = Number(msg.count) || 0;
        break;
      case "snapshot":
        this.info = msg.table;
        if (msg.game !== undefined) {
          this.game = msg.game;
          this.state = msg.state;
          this.events = msg.start ? [msg.start] : [];
          this.lastN = Number(msg.last_n);
          this.end = msg.end || null;
        }
        break;
      case "events":
        if (msg.game !== this.game) {
          this.game = msg.game;
          this.events = [];
          this.end = null;
        }
        for (const ev of msg.events) {
          this.events.push(ev);
          this.lastN = Math.max(this.lastN, Number(ev.n));
          if (ev.kind === "settlement") this.end = ev;
        }
        if (msg.state) this.state = msg.state;
        break;
      case "closed":
        this.closed = msg;
        this.conn.stop();
        break;
      case "error":
        if (String(msg.code).startsWith("watch-")) {
          this.refused = msg;
          this.conn.stop();
        }
        break;
      default:
        return;
    }
    this.render();
  }

  stop() {
    this.conn.stop();
  }

  /** The seats' names as the table shows them. @returns {string[]} */
  names() {
    const seats = this.info && Array.isArray(this.info.seats) ? this.info.seats : [];
    return [0, 1].map((i) => (seats[i] ? playerName(String(seats[i].name || "?")) : "?"));
  }

  render() {
    const family = this.info ? String(this.info.family) : "";
    const head = h(
      "div.watch-head",
      null,
      h("h2", null, t("watch_title"), family ? ` · ${familyName(family)}` : ""),
      h("p.watch-delay", null, this.delay ? t("watch_delay", this.delay) : t("watch_live")),
      h("p.watch-count", { "aria-live": "polite" }, t("watch_count", this.watchers)),
    );
    const parts = [head];
    if (this.refused) {
      const p = this.refused.params || {};
      const why = p.reason ? t(`watch_why_${String(p.reason).replace(/-/g, "_")}`) : errorText(this.refused.code, "", p);
      parts.push(h("p.error", { role: "alert" }, why));
    } else if (this.state && this.info) {
      parts.push(boardEl(this.board(family, this.state)));
      if (this.end) parts.push(this.endEl());
    } else {
      parts.push(h("p.watch-wait", null, this.connState === "open" ? t("watch_waiting") : t("conn_wait")));
    }
    if (this.closed) parts.push(closedEl(this.closed, -1, () => this.exit()));
    parts.push(h("a.button.ghost", { href: "#/" }, t("back_lobby")));
    this.main.replaceChildren(h("section.watch", { "aria-label": t("watch_title") }, ...parts));
  }

  /** The board of the public view: seat 0 at the bottom, both hands face down, named seats.
   * @param {string} family @param {Obs} st @returns {BoardView} */
  board(family, st) {
    const names = this.names();
    const ctx = { events: this.events, seat: -1, legal: [] };
    let lastDiscard = null;
    for (const ev of this.events) {
      if ((ev.kind === "discard" || ev.kind === "ting") && ev.player >= 0) lastDiscard = { seat: ev.player, index: (st.discards[ev.player] || []).length - 1 };
    }
    const seats = this.info && Array.isArray(this.info.seats) ? this.info.seats : [];
    return {
      family,
      me: 0,
      names,
      state: st,
      open: true,
      watching: true,
      ...familyBoard(family, st, ctx),
      lastDiscard,
      oppDrew: false,
      online: [0, 1].map((i) => !!(seats[i] && seats[i].online)),
      ready: [0, 1].map((i) => !!(seats[i] && seats[i].ready)),
      handNo: this.info ? Number(this.info.hand) || 1 : 1,
      timerEnd: null,
      lastText: describeLast(this.events.filter((e) => isEngineEvent(e) || e.kind === "start"), -1, names),
    };
  }

  /** The hand's end: its result and both hands, open (as the public replay shows them). */
  endEl() {
    const end = this.end;
    const names = this.names();
    const r = end.result || {};
    const line = r.winner === null || r.winner === undefined ? t("s_draw") : t("watch_won", names[r.winner] || "?");
    const hands = (end.hands || []).map((/** @type {any} */ hand, /** @type {number} */ seat) => {
      const parsed = parseHand(String(hand.hand || ""));
      const tiles = [...parsed.concealed, ...parsed.melds.flatMap((m) => m.tiles), ...(parsed.win ? [parsed.win] : [])];
      const shown = h("span.watch-tiles", null, ...tiles.map((code) => tileEl(code, { size: "s", lang: getLang() })));
      return h("div.watch-hand", null, h("b", null, names[seat]), shown);
    });
    return h("div.panel.watch-end", { role: "status" }, h("h3", null, line), ...hands);
  }
}
