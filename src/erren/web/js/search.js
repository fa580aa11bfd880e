// The quick-match search of this tab. The waiting request holds the player's place in the
// queue (docs/protocol.md, POST /match/quick); the server keeps the place a few seconds after
// the request's connection goes (a reload, a closed tab) and pairs nobody with him meanwhile.
// So: while the page is hidden the request is dropped (a phone's sleeping tab is nobody to be
// seated with) and asked again, to resume the place, when the page shows again; the search is
// kept in sessionStorage, so a reload, or a table the opponent never came to (closed
// `no-show`), carries it on; and when the place was not kept (`search-lost`) the player is
// queued again and told so.

import { ApiError, api } from "./api.js";

/** How long one request waits for an opponent (seconds). */
export const WAIT_S = 60;
/** A resume refused with `waiting` (the server has not yet seen the last request go) is tried
 * again this often, this many times. */
const RETRY_MS = 250;
const RETRIES = 12;
const KEY = "erren.search";

/** The search a tab keeps: its room, its account (`null`: the one logged in), and what to tell
 * the player when it comes back (`no-show`: his opponent never came to the table).
 * @typedef {{room: string, user: number|null, note: string}} SavedSearch */

/** How the screen shows the search.
 * @typedef {{waiting: (note: string) => void, seated: (table: string) => void, failed: (e: unknown) => void}} SearchView */

/** @param {string} room @param {number|null} user @param {string} [note] */
export function saveSearch(room, user, note = "") {
  sessionStorage.setItem(KEY, JSON.stringify({ room, user, note }));
}

/** @returns {SavedSearch|null} */
export function savedSearch() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (saved && typeof saved.room === "string") return { room: saved.room, user: typeof saved.user === "number" ? saved.user : null, note: String(saved.note || "") };
  } catch {
    /* a damaged entry: no search */
  }
  return null;
}

export function clearSearch() {
  sessionStorage.removeItem(KEY);
}

class Search {
  constructor() {
    /** @type {string|null} */
    this.room = null;
    /** @type {number|null} */
    this.user = null;
    /** the request now waiting (`null`: no search) @type {AbortController|null} */
    this.ctrl = null;
    /** the page is hidden: the request was dropped, the place is kept by the server a while */
    this.hidden = false;
    this.note = "";
    /** @type {SearchView|null} */
    this.view = null;
  }

  /** A search runs in this tab (its request waits, or waits for the page to show again). */
  get active() {
    return this.ctrl !== null;
  }

  /**
   * Search in `room`: a new search, or (`resume`) the player's own, kept in its place.
   * @param {string} room @param {number|null} user @param {boolean} [resume] @param {string} [note] @param {number} [tries]
   */
  async start(room, user, resume = false, note = "", tries = 0) {
    this.ctrl?.abort();
    const ctrl = new AbortController();
    Object.assign(this, { room, user, ctrl, hidden: false, note });
    saveSearch(room, user);
    this.view?.waiting(note);
    try {
      const seat = await api("POST", "/match/quick", { room, wait_s: WAIT_S, resume }, ctrl.signal);
      if (ctrl !== this.ctrl) return;
      this.end();
      this.view?.seated(seat.table);
    } catch (e) {
      // another search, hidden or cancelled; or the page is going away (a reload): the request
      // dies with it, but the search is kept for the next page to resume
      if (ctrl !== this.ctrl || ctrl.signal.aborted || leaving) return;
      if (e instanceof ApiError && e.code === "search-lost") {
        this.start(room, user, false, "lost");
        return;
      }
      if (e instanceof ApiError && e.code === "waiting" && resume && tries < RETRIES) {
        window.setTimeout(() => { if (this.ctrl === ctrl) this.start(room, user, true, note, tries + 1); }, RETRY_MS);
        return;
      }
      this.end();
      this.view?.failed(e);
    }
  }

  /** Stop searching: the server takes the player out of the queue first (so nobody is paired
   * with a player who left), then the request is dropped. */
  cancel() {
    const was = this.ctrl;
    this.end();
    api("DELETE", "/match/quick").catch(() => undefined).finally(() => was?.abort());
  }

  end() {
    this.ctrl = null;
    this.room = null;
    this.hidden = false;
    clearSearch();
  }

  /** The page hid (drop the request: the server keeps the place a few seconds, pairing nobody
   * with a page nobody looks at) or showed again (resume it). @param {boolean} hidden */
  visibility(hidden) {
    if (!this.ctrl || !this.room) return;
    if (hidden && !this.hidden) {
      this.hidden = true;
      this.ctrl.abort();
    } else if (!hidden && this.hidden) {
      this.start(this.room, this.user, true, this.note);
    }
  }
}

/** The page is being unloaded (a reload, a navigation): a request failing now keeps the search. */
let leaving = false;
window.addEventListener("beforeunload", () => { leaving = true; });
window.addEventListener("pagehide", () => { leaving = true; });
window.addEventListener("pageshow", () => { leaving = false; });

/** The tab's one search. */
export const search = new Search();

document.addEventListener("visibilitychange", () => search.visibility(document.visibilityState === "hidden"));
