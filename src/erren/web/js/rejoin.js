// A table that moved to another server (a cluster node lost it: its lease lapsed, the node died
// or was paused, Redis lost its keys): another node takes the hand over from the database within
// a lease or so. Meanwhile the client keeps the table as it was and joins again (with `game` and
// `since`) after a short pause, growing, answering "not yet" (`not-seated`, `moved`) with another
// try, until a node plays the table again or the window runs out (docs/protocol.md, "How the
// browser client rides out a bad connection").

/** How long after the move the client keeps joining again before it gives the table up. */
export const REJOIN_WINDOW_MS = 60000;
/** The pause before the first join again; it doubles after each "not yet", up to the next. */
export const REJOIN_FIRST_MS = 500;
export const REJOIN_MAX_MS = 3000;

/**
 * Whether a message says the table is not played where the client joined it (yet): a `closed`
 * or an `error` with code `moved`, or, while rejoining, `not-seated` (no node plays it yet).
 * @param {any} msg @param {boolean} rejoining @returns {boolean}
 */
export function movedMessage(msg, rejoining) {
  if (msg.type !== "closed" && msg.type !== "error") return false;
  if (msg.code === "moved") return true;
  return rejoining && msg.type === "error" && msg.code === "not-seated";
}

/** The joins again after a move, their growing pauses and the window they stop at. */
export class Rejoin {
  /**
   * @param {() => void} join send the `join` again (with `game` and `since`)
   * @param {() => void} giveUp the window ran out: the table is given up
   */
  constructor(join, giveUp) {
    this.join = join;
    this.giveUp = giveUp;
    /** how long the tries go on after the move (a test may shorten it on a page's table) */
    this.windowMs = REJOIN_WINDOW_MS;
    /** when the move was heard (Date.now()); null: not rejoining @type {number|null} */
    this.since = null;
    this.tries = 0;
    /** @type {number|undefined} */
    this.retry = undefined;
    /** @type {number|undefined} */
    this.deadline = undefined;
  }

  /** @returns {boolean} */
  get active() {
    return this.since !== null;
  }

  /** The table moved, or a join again was answered "not yet": join again after the next pause.
   * False when the window has run out (then the table was given up). @returns {boolean} */
  heard() {
    const now = Date.now();
    if (this.since === null) {
      this.since = now;
      this.tries = 0;
      this.deadline = window.setTimeout(() => this.expire(), this.windowMs);
    }
    const left = this.since + this.windowMs - now;
    if (left <= 0) {
      this.expire();
      return false;
    }
    const pause = Math.min(REJOIN_MAX_MS, REJOIN_FIRST_MS * 2 ** Math.min(this.tries, 8));
    this.tries += 1;
    window.clearTimeout(this.retry);
    // a try the window would end before it is answered is not made: the deadline gives up
    if (pause < left) this.retry = window.setTimeout(() => this.join(), pause);
    return true;
  }

  /** The window ran out while still rejoining: give the table up. */
  expire() {
    const was = this.active;
    this.stop();
    if (was) this.giveUp();
  }

  /** A node plays the table again (or the view goes away): no more tries. */
  stop() {
    window.clearTimeout(this.retry);
    window.clearTimeout(this.deadline);
    this.retry = this.deadline = undefined;
    this.since = null;
    this.tries = 0;
  }
}
