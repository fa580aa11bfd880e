// A live table: the WebSocket session, the board, legal actions as buttons, keyboard shortcuts,
// 托管, reconnection from the last event number (kept in sessionStorage, so a reload carries on).
// While the connection is lost (or not yet resynced) a full-table overlay blocks input; a move
// made just before the loss is kept and sent after the resync if the hand is still where it was,
// otherwise the player is told it was not played. A table that moved to another server (a cluster
// node lost it) is kept as it was and joined again until a node plays it (rejoin.js).

import { actionButtons } from "./actions.js";
import { onTableKey } from "./keys.js";
import { Connection } from "./api.js";
import { leaveDialog } from "./notices.js";
import { isMove, trusteeReason } from "./events.js";
import { moveLabel } from "./reconnect.js";
import { Rejoin, movedMessage } from "./rejoin.js";
import { saveSearch } from "./search.js";
import { handOrder } from "./board.js";
import { canGive, givenTiles, hasRoom, heldMode, isSelecting, modeStays, stepsOf } from "./selection.js";
import { clearToasts, toast } from "./dom.js";
import { motionOf } from "./motion.js";
import { muted, setMuted, soundEvents } from "./sound.js";
import { hintsOn, setHintsOn } from "./hints.js";
import { familyUnit } from "./review.js";
import { aidAnswer } from "./settings.js";
import { settingsChanged } from "./accountsettings.js";
import { errorText, t } from "./i18n.js";
import { boardView, renderTable, resultText, seatName, showConn } from "./tablescreen.js";
import { announceEvents, clearAnnouncements } from "./announce.js";
import { trusteeText } from "./prompts.js";
import { TableChat } from "./chat.js";

/** A toast about this table: it goes when the table closes. @param {string} text @param {"info"|"error"} [kind] */
const say = (text, kind = "info") => toast(text, kind, "table");

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {import("./board.js").BoardView} BoardView */
/** @typedef {import("./api.js").TableInfo} TableInfo */
/**
 * An event of the table: the engine's (schema.js) or the server's own (a hand starts, the
 * settlement).
 * @typedef {{n: number, kind: "start"|"settlement", player?: undefined, tile?: undefined, tiles?: undefined, auto?: undefined, data?: undefined, [k: string]: any}} TableEvent
 * @typedef {import("./schema.js").EngineEvent|TableEvent} GameEvent
 */
/** @typedef {import("./actions.js").Button} Button */
/** A move the player made that the server has not answered yet: `n` is the event it was made on.
 * @typedef {{action: string, n: number}} Move */

/** Whether an error is about something beside the player's move (a chat line, a review, a
 * hint): it leaves his move in flight and the rest of a multi-step answer alone.
 * @param {{code?: string}} msg @returns {boolean} */
function besideTheMove(msg) {
  return msg.code === "chat-too-fast" || msg.code === "chat-blocked" || msg.code === "no-review" || msg.code === "busy";
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {string} tableId
   * @param {(reason?: string, next?: string) => void} onExit leave the table view: `reason`
   *   "logged-out" returns to the login screen; `next` is the hash to go to (the lobby by default)
   */
  constructor(root, tableId, onExit) {
    this.root = root;
    this.tableId = tableId;
    this.onExit = onExit;
    /** @type {TableInfo|null} */
    this.info = null;
    this.seat = 0;
    /** @type {number|null} */
    this.game = null;
    this.lastN = -1;
    /** @type {GameEvent[]} */
    this.events = [];
    /** @type {Obs|null} */
    this.state = null;
    /** @type {TableEvent|null} */
    this.end = null;
    this.handNo = 1;
    /** "ting", a family's selection mode (selection.js), or none @type {string|null} */
    this.mode = null;
    /** @type {Set<number>} */
    this.selected = new Set();
    this.focus = -1;
    /** @type {Button|null} */
    this.chooser = null;
    /** @type {number|null} */
    this.timerEnd = null;
    this.online = [true, true];
    /** how many spectators watch the table (a count, never names: watch.js) */
    this.watchers = 0;
    this.ready = [false, false];
    this.readySent = false;
    /** @type {string|null} */
    this.closedReason = null;
    /** the `closed` message, rendered by its code @type {any} */
    this.closedMsg = null;
    /** @type {import("./api.js").ConnState} */
    this.connState = "connecting";
    /** joined, waiting for the events or snapshot that bring the table up to date */
    this.syncing = true;
    /** sent on the socket, not answered yet @type {Move|null} */
    this.inflight = null;
    /** made while the connection was lost: sent after the resync if still legal @type {Move|null} */
    this.pending = null;
    /** the rest of a multi-tile answer, each step sent once the server echoed the one before @type {string[]} */
    this.steps = [];
    /** the decision (hand and event) the play aids last answered @type {string} */
    this.autoAt = "";
    /** @type {HTMLElement|null} */
    this.dialog = null;
    /** @type {Record<string, string>} */
    this.roomNames = {};
    /** the expert's advice (the hint), the event it was given at and why @type {{n: number, action: string, reason: import("./hints.js").Reason|null}|null} */
    this.advice = null;
    /** 大师's review of the hand just ended (review.js) @type {import("./review.js").ReviewMessage|null} */
    this.review = null;
    this.reviewAsked = false;
    /** the reviews asked at this table, by game: the table session's summary @type {Map<number, import("./review.js").HandReview>} */
    this.sessionReviews = new Map();
    /** the unit of the table's family's points (the room catalogue's) @type {import("./review.js").Unit|null} */
    this.reviewUnit = null;
    /** the server cannot write the game's record now and retries (the hand waits) */
    this.storeRetrying = false;
    /** the motions owed to the next drawing of the board (motion.js) @type {import("./motion.js").Motion[]} */
    this.motions = [];
    /** the joins again after the table moved to another server */
    this.rejoin = new Rejoin(() => this.join(), () => this.gaveUp());
    /** quick chat and stickers (chat.js) */
    this.chat = new TableChat(tableId, (m) => this.conn.send(m), () => this.render());
    this.restore();
    clearAnnouncements();
    this.keyHandler = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.conn = new Connection(
      (m) => this.onMessage(m),
      (s) => this.onConnState(s),
      () => this.join(),
    );
    this.render();
  }

  get storeKey() {
    return `erren.table.${this.tableId}`;
  }

  restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.storeKey) || "null");
      if (saved && typeof saved.game === "number") {
        this.game = saved.game;
        this.lastN = saved.lastN;
        this.events = saved.events || [];
        this.handNo = saved.handNo || 1;
      }
    } catch {
      /* a damaged entry: start from a snapshot */
    }
  }

  save() {
    const keep = { game: this.game, lastN: this.lastN, events: this.events.slice(-400), handNo: this.handNo };
    sessionStorage.setItem(this.storeKey, JSON.stringify(keep));
  }

  /** @param {import("./api.js").ConnState} s */
  onConnState(s) {
    const was = this.connState;
    this.connState = s;
    if (s === "replaced" || s === "closed") this.rejoin.stop(); // final: nothing joins again
    if (s === "logged-out") {
      this.destroy();
      this.onExit("logged-out");
      return;
    }
    if (s !== "open") {
      this.syncing = true;
      this.steps = [];
      if (this.inflight && !this.pending) this.pending = this.inflight;
      this.inflight = null;
    }
    if ((was === "open") !== (s === "open") || s === "replaced" || s === "closed") this.render();
    else showConn(this);
  }

  /** Input waits: the connection is lost or the table is not resynced yet. @returns {boolean} */
  blocked() {
    return this.connState !== "open" || this.syncing;
  }

  join() {
    this.syncing = true;
    /** @type {Record<string, unknown>} */
    const msg = { type: "join", table: this.tableId };
    if (this.game !== null && this.lastN >= 0) {
      msg.game = this.game;
      msg.since = this.lastN;
    }
    this.conn.send(msg);
  }

  destroy() {
    clearToasts("table");
    this.rejoin.stop();
    document.removeEventListener("keydown", this.keyHandler);
    this.conn.stop();
    this.chat.stop();
    this.dialog?.remove();
    this.dialog = null;
  }

  /** The table is up to date again: send the move kept over the loss if the hand is still on the
   * event it was made on and the move is still legal; otherwise tell the player. */
  resynced() {
    const was = this.syncing;
    this.syncing = false;
    const move = this.pending;
    if (!was || !move) return;
    this.pending = null;
    const label = moveLabel(move.action);
    if (this.lastN === move.n && this.legal().includes(move.action) && !this.end) {
      this.conn.send({ type: "act", action: move.action, n: move.n });
      this.inflight = move;
      this.state = this.state ? { ...this.state, legal: [] } : null;
      say(t("move_sent", label));
      return;
    }
    if (this.events.some((e) => e.n > move.n && isMove(e, move.action, this.seat))) say(t("move_done", label));
    else say(t("move_dropped", label), "error");
  }

  // ------------------------------------------------------------------ messages
  /** @param {any} msg */
  onMessage(msg) {
    const open = this.closedMsg === null && this.closedReason === null;
    if (open && movedMessage(msg, this.rejoin.active)) {
      this.moved();
      this.render();
      return;
    }
    if (msg.type === "joined" || msg.type === "snapshot" || msg.type === "events") this.rejoin.stop();
    if (this.inflight && (msg.type === "events" || msg.type === "snapshot" || msg.type === "error")) {
      const n = msg.type === "snapshot" ? msg.last_n : msg.state ? msg.state.last_n : null;
      if ((msg.type === "error" && !besideTheMove(msg)) || (typeof n === "number" && n > this.inflight.n)) this.inflight = null;
    }
    switch (msg.type) {
      case "joined":
      case "table":
        this.setInfo(msg.table);
        if (typeof msg.seat === "number") this.seat = msg.seat;
        break;
      case "snapshot":
        this.setInfo(msg.table);
        this.seat = msg.seat;
        if (msg.state) {
          if (msg.game !== this.game) this.newHand(msg.game);
          if (msg.start && !this.events.some((e) => e.n === 0)) this.addEvents([msg.start]);
          this.end = msg.end || null;
          this.lastN = msg.last_n;
          this.setState(msg.state);
        }
        this.resynced();
        this.autoAnswer();
        break;
      case "events":
        if (msg.game !== this.game) this.newHand(msg.game);
        this.addEvents(msg.events);
        this.setState(msg.state);
        this.resynced();
        this.nextStep();
        this.autoAnswer();
        break;
      case "advice":
        if (msg.action && msg.n === this.lastN) this.advice = { n: msg.n, action: msg.action, reason: msg.reason || null };
        else if (!msg.action) say(t("hint_none"));
        break;
      case "review":
        if (msg.game === this.game && msg.seat === this.seat) {
          this.review = msg;
          this.sessionReviews.set(msg.game, msg.review);
          familyUnit(msg.review.ruleset).then((unit) => {
            this.reviewUnit = unit;
            if (this.review === msg) this.render();
          });
        }
        break;
      case "replaced":
        break;
      case "store-ok":
        this.storeRetrying = false;
        break;
      case "presence":
        this.online[msg.seat] = msg.online;
        break;
      case "ready":
        this.ready[msg.seat] = true;
        break;
      case "watchers":
        this.watchers = Number(msg.count) || 0;
        break;
      case "chat":
        this.chat.heard(msg, this.seat);
        return;
      case "closed":
        this.close(msg);
        if (msg.code === "no-show" && msg.params && typeof msg.params.room === "string") {
          // the opponent never came: the player is back at the front of the queue (search.js)
          saveSearch(msg.params.room, null, "no-show");
          this.destroy();
          this.onExit(undefined, "#/");
          return;
        }
        break;
      case "error":
        if (msg.code === "logged-out" || msg.code === "auth") return;
        if (!besideTheMove(msg)) this.steps = [];
        if (msg.code === "stale") this.conn.send({ type: "resync" });
        else if (msg.code === "not-seated") {
          this.closedReason = errorText(msg.code, msg.message, msg.params);
          this.syncing = false;
          sessionStorage.removeItem(this.storeKey);
        } else if (msg.code === "store-retrying") this.storeRetrying = true;
        else if (msg.code === "chat-too-fast") {
          this.chat.refused(msg.params); // the button greys for the rest of the wait
          say(errorText(msg.code, msg.message, msg.params), "error");
        }
        else if (msg.code === "no-review" || (msg.code === "busy" && msg.params && msg.params.work === "review")) {
          this.reviewAsked = false;
          say(errorText(msg.code, msg.message, msg.params), "error");
        }
        else say(errorText(msg.code, msg.message, msg.params), "error");
        break;
      default:
        return;
    }
    this.render();
  }

  /** The table closed (the `closed` message): shown by its code; the table is forgotten.
   * @param {any} msg */
  close(msg) {
    this.rejoin.stop();
    this.closedReason = String(msg.reason || "");
    this.closedMsg = msg;
    this.syncing = false;
    this.pending = null;
    this.dialog?.remove();
    this.dialog = null;
    sessionStorage.removeItem(this.storeKey);
  }

  /** The table moved to another server, or a join again found no node playing it yet: every
   * table can come back (a hand under way from its record, a table waiting for a deal from its
   * entry in the cluster's Redis), so keep the table as it is (its game, events, last event
   * number) behind the overlay and join again after a pause (rejoin.js); a move sent and not
   * answered is kept as after a lost connection. */
  moved() {
    if (!this.rejoin.heard()) return; // the window ran out: given up
    this.syncing = true;
    this.steps = [];
    if (this.inflight && !this.pending) this.pending = this.inflight;
    this.inflight = null;
  }

  /** No node took the moved table back within the window: the closed panel (code `moved`), and
   * the player is told a move kept for after the rejoin may not have been played. */
  gaveUp() {
    const move = this.pending;
    this.close({ type: "closed", table: this.tableId, code: "moved", reason: "", params: {} });
    if (move) say(t("moved_unsure", moveLabel(move.action)), "error");
    this.render();
  }

  /** @param {TableInfo} info */
  setInfo(info) {
    this.info = info;
    info.seats.forEach((s, i) => {
      this.online[i] = s.online || !!s.bot;
      this.ready[i] = s.ready;
    });
    if (info.hand) this.handNo = info.hand;
  }

  /** @param {number} game */
  newHand(game) {
    // 托管 lasts one hand (the engine's state is the hand's): the player is told it is off now
    if (this.state && this.state.trustee[this.seat]) say(t("trustee_new_hand"));
    this.game = game;
    this.events = [];
    this.end = null;
    this.lastN = -1;
    this.mode = null;
    this.selected.clear();
    this.readySent = false;
    this.ready = [false, false];
    this.review = null;
    this.reviewAsked = false;
  }

  /** The new events of the hand: kept, and (when they arrive live, not in a resync's catch-up)
   * heard and seen: their sounds, and the motions of the next drawing of the board.
   * @param {GameEvent[]} events */
  addEvents(events) {
    /** @type {GameEvent[]} */
    const fresh = [];
    for (const ev of events) {
      if (this.events.some((e) => e.n === ev.n && e.kind === ev.kind)) continue;
      this.events.push(ev);
      fresh.push(ev);
      if (ev.kind === "start" && typeof ev.hand === "number") this.handNo = ev.hand;
      if (ev.kind === "settlement") {
        this.end = ev;
        window.dispatchEvent(new CustomEvent("erren:settled", { detail: ev.game })); // the header's beans
      }
      this.lastN = Math.max(this.lastN, ev.n);
    }
    if (!this.syncing && fresh.length) {
      soundEvents(fresh, this.seat);
      for (const ev of fresh) {
        const m = motionOf(ev);
        if (m) this.motions.push(m);
      }
      this.tellTrustee(fresh);
      // read out to a screen reader (announce.js): the moves, the result
      const names = this.info ? this.info.seats.map(seatName) : [];
      announceEvents(fresh, this.seat, names, (r) => resultText(this, r));
    }
    this.save();
  }

  /** @param {Obs} state */
  setState(state) {
    const wasMyTurn = this.state && this.state.to_act === this.seat;
    this.state = state;
    this.lastN = Math.max(this.lastN, state.last_n);
    if (this.end) this.lastN = Math.max(this.lastN, this.end.n);
    const timer = state.timer;
    if (timer) {
      const now = Date.now();
      let end = timer.deadline ? timer.deadline * 1000 : now + timer.seconds * 1000;
      if (end - now > timer.seconds * 1000 + 3000 || end < now - 1000) end = now + timer.seconds * 1000;
      this.timerEnd = end;
    } else this.timerEnd = null;
    if (!(state.to_act === this.seat) || !wasMyTurn) {
      if (!modeStays(this.mode, state)) this.mode = null;
      this.selected.clear();
      this.chooser = null;
      this.focus = -1;
    }
    // a choice the state holds him in (after a reload: its moves are the only ones)
    const held = heldMode(state, this.seat, this.givenSoFar());
    if (held) this.mode = held;
    this.save();
  }

  /** The tiles given up so far in the choice the player is making (selection.js). @returns {string[]} */
  givenSoFar() {
    return givenTiles(this.info ? this.info.family : "", this.state);
  }

  // ------------------------------------------------------------------ the hint
  /** Whether hints (ready hints and the hint button) are on for this table's game. @returns {boolean} */
  hintsOn() {
    return hintsOn(this.info ? this.info.family : "");
  }

  /** Switch the hints on or off (remembered for this game, hints.js). */
  toggleHints() {
    setHintsOn(this.info ? this.info.family : "", !this.hintsOn());
    this.render();
  }

  /** Ask for 大师's review of the hand just ended (answered by a `review` message). */
  askReview() {
    if (this.end && !this.reviewAsked && this.conn.send({ type: "review" })) {
      this.reviewAsked = true;
      this.render();
    }
  }

  /** Whether the hint can be asked: hints are on, the player has a decision and nothing is on its way. */
  canAskHint() {
    const st = this.state;
    return !!st && this.hintsOn() && !this.end && st.to_act === this.seat && st.legal.length > 0 && !this.blocked() && !this.inflight;
  }

  /** Ask the server for the expert's move (`advice`); the answer marks the tile or button. */
  askHint() {
    if (this.canAskHint()) this.conn.send({ type: "advice" });
  }

  /** The advised action if it still applies (given at the current event), else null. @returns {string|null} */
  currentAdvice() {
    const a = this.advice;
    return a && a.n === this.lastN && this.state && this.state.to_act === this.seat && this.state.legal.includes(a.action) ? a.action : null;
  }

  // ------------------------------------------------------------------ acting
  /** @param {string} action */
  act(action) {
    if (!this.state) return;
    const steps = stepsOf(action);
    if (steps.length > 1) {
      action = steps[0];
      this.steps = steps.slice(1);
    }
    /** @type {Move} */
    const move = { action, n: this.lastN };
    if (!this.blocked() && this.conn.send({ type: "act", action, n: move.n })) this.inflight = move;
    else this.pending = move; // kept: sent after the resync if still legal
    this.mode = null;
    this.chooser = null;
    this.selected.clear();
    this.focus = -1;
    // answer at once on screen: the legal actions are spent until the server replies
    this.state = { ...this.state, legal: [] };
    this.render();
  }

  /** Send the next step of a multi-tile answer (the server echoed the one before), or drop the
   * rest if it is no longer legal. */
  nextStep() {
    const next = this.steps.shift();
    if (next === undefined) return;
    if (this.legal().includes(next)) this.act(next);
    else this.steps = [];
  }

  /** The settings' play aids (自动和, 不吃碰: settings.js `aidAnswer`), once per decision, never
   * over a move on its way or a choice under way. */
  autoAnswer() {
    const at = `${this.game}:${this.lastN}`;
    if (this.end || this.inflight || this.pending || this.steps.length || this.mode || this.autoAt === at) return;
    const answer = aidAnswer(this.legal(), (this.state && this.state.wins) || []);
    if (!answer) return;
    this.autoAt = at;
    this.act(answer);
  }

  /** The moves the player may make now.  A decision in which he could only pass (a claim
   * window, xiamen's opening window without 三金倒 or 抢金, ...) is passed by the table itself
   * at the 鸣牌保护 pause (guobiao-2p §2.4), so it offers nothing.
   * @returns {string[]} */
  legal() {
    const st = this.state;
    if (!st || st.to_act !== this.seat) return [];
    if (st.legal.length === 1 && st.legal[0] === "pass") return [];
    return st.legal;
  }

  /** Whether the tile at hand position `index` may be clicked; `given` are the positions already
   * given up in the selection mode's choice.
   * @param {string} tile @param {number} index @param {Set<number>} given @returns {boolean} */
  clickable(tile, index, given) {
    const legal = this.legal();
    if (isSelecting(this.mode)) {
      return legal.length > 0 && !given.has(index) && (this.selected.has(index) || canGive(tile, this.givenSoFar()));
    }
    if (this.mode === "ting") return legal.includes(`ting:${tile}`);
    return legal.includes(`discard:${tile}`);
  }

  /** @param {number} index @param {string} tile */
  onTile(index, tile) {
    if (isSelecting(this.mode)) {
      if (this.selected.has(index)) this.selected.delete(index);
      else if (hasRoom(this.mode, this.selected.size, this.givenSoFar())) this.selected.add(index);
      this.render();
      return;
    }
    this.act(this.mode === "ting" ? `ting:${tile}` : `discard:${tile}`);
  }

  /** The tiles of the selected hand positions. @returns {string[]} */
  selectedTiles() {
    if (!this.state) return [];
    const { order } = handOrder(this.view(), this.state.hand, this.seat);
    return [...this.selected].map((i) => order[i]).filter(Boolean);
  }

  /** The buttons of the legal actions (discards are clicks on tiles). @returns {Button[]} */
  buttons() {
    return actionButtons({
      legal: this.legal(),
      mode: this.mode,
      pending: this.state ? this.state.pending || null : null,
      given: this.state && this.state.to_act === this.seat ? this.givenSoFar() : [],
      selectedTiles: () => this.selectedTiles(),
      toggleMode: (m) => this.toggleMode(m),
    });
  }

  /** @param {string} mode "ting" or a selection mode */
  toggleMode(mode) {
    if (this.state && heldMode(this.state, this.seat, this.givenSoFar())) return; // the choice under way stays open
    this.mode = this.mode === mode ? null : mode;
    this.selected.clear();
    this.render();
  }

  /** @param {Button} b */
  press(b) {
    if (b.run) b.run();
    else if (b.action) this.act(b.action);
    else if (b.options && b.options.length === 1) this.act(b.options[0].action);
    else if (b.options) {
      this.chooser = this.chooser === b ? null : b;
      this.render();
    }
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    onTableKey(this, e);
  }

  /** Switch the sounds off or on (remembered by the browser). */
  toggleSound() {
    setMuted(!muted());
    settingsChanged();
    this.render();
  }

  /** Tell the player when 托管 switches on for him (and why) or off, seen and read out (the
   * toasts are the page's polite live region). @param {GameEvent[]} fresh */
  tellTrustee(fresh) {
    for (const ev of fresh) {
      if (ev.kind !== "trustee" || ev.player !== this.seat) continue;
      if (!ev.data.on) say(t("trustee_off_now"));
      else say(trusteeText(trusteeReason([ev], this.seat), this.info ? this.info.options.auto_trustee_after : undefined));
    }
  }

  toggleTrustee() {
    if (!this.state || this.blocked()) return;
    this.conn.send({ type: "trustee", on: !this.state.trustee[this.seat] });
  }

  /** Ask first, saying what leaving costs now (an escape in a running hand, nothing between
   * hands). */
  leave() {
    if (this.connState === "replaced" || this.closedMsg) {
      this.destroy();
      this.onExit();
      return;
    }
    if (this.dialog) return;
    const running = !!(this.state && !this.end && this.state.phase !== "end");
    this.dialog = leaveDialog({
      info: this.info,
      running,
      onLeave: () => this.leaveNow(),
      onStay: () => {
        this.dialog?.remove();
        this.dialog = null;
      },
    });
    document.body.append(this.dialog);
  }

  leaveNow() {
    this.dialog?.remove();
    this.dialog = null;
    this.conn.send({ type: "leave" });
    sessionStorage.removeItem(this.storeKey);
    window.setTimeout(() => {
      this.destroy();
      this.onExit();
    }, 150);
  }

  /** A hand of a family's own kind of table is over: back to the screen it came from (its
   * `back`). @param {string} hash */
  backTo(hash) {
    sessionStorage.removeItem(this.storeKey);
    location.hash = hash;
  }

  nextHand() {
    this.conn.send({ type: "ready" });
    this.readySent = true;
    this.render();
  }

  // ------------------------------------------------------------------ drawing (tablescreen.js)
  /** @returns {import("./board.js").BoardView} */
  view() {
    return boardView(this);
  }

  render() {
    renderTable(this);
  }
}

