// Quick chat (快捷语) and stickers at a live table: no free text.  A player picks a phrase or a
// sticker from the picker (the 💬 button beside the sound switch); only its id travels
// ({"type": "chat", "phrase": "hurry"}, docs/protocol.md) and both seats show it as a bubble
// beside the sender's bar for a few seconds, the phrase worded in the reader's own language
// (i18n.js `chat_<id>`), the sticker drawn here as SVG in the tiles' colours.  One message per
// 3 s: the button is greyed for the rest of the wait (the server refuses a sooner one with
// `chat-too-fast` and how long is left).  A player can mute his opponent at this table (the
// picker's switch, kept for the browser session) and everyone at every table (the settings
// panel's 屏蔽聊天, kept with the account like the other settings).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The phrases' ids, in the picker's order (the server's closed list: erren.server.chat.Phrase). */
export const PHRASES = ["hurry", "nice-play", "dropped", "one-more", "great-hand", "thanks", "hello", "good-game", "so-close", "lucky", "thinking", "bye"];
/** The stickers' ids, in the picker's order (the server's closed list: erren.server.chat.Sticker). */
export const STICKERS = ["smile", "laugh", "cry", "angry", "shock", "cool", "sleepy", "sweat", "love", "thumbs", "tea", "flower"];
/** The shortest time between two messages of one player (the server's CHAT_INTERVAL_S). */
export const CHAT_GAP_MS = 3000;
/** The layout of a phone held sideways (style.css's media query of the same name). */
const SIDEWAYS = "(orientation: landscape) and (max-height: 500px)";

/** How long a bubble stays beside the sender's seat. */
export const BUBBLE_MS = 4000;

const MUTE_ALL_KEY = "erren.mutechat";
const INK = "#17203d";
const RED = "#c62a22";
const GREEN = "#1f7a4a";
const BLUE = "#1d4f9c";
const PAPER = "#fffdf6";

/** 屏蔽聊天: nobody's chat is shown (the settings panel's switch; off unless switched on). @returns {boolean} */
export function chatMuted() {
  try {
    return localStorage.getItem(MUTE_ALL_KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
export function setChatMuted(on) {
  try {
    if (on) localStorage.setItem(MUTE_ALL_KEY, "on");
    else localStorage.removeItem(MUTE_ALL_KEY);
  } catch {
    /* storage refused: holds for this page only */
  }
}

// ------------------------------------------------------------------ the stickers
/** A face's eyes, open dots. */
const EYES = `<circle cx="17" cy="21" r="2.6" fill="${INK}"/><circle cx="31" cy="21" r="2.6" fill="${INK}"/>`;
/** Each sticker's drawing over the tile-ivory disc ringed like the one-dot tile (48 × 48 units). */
const FACES = {
  smile: `${EYES}<path d="M15 29q9 8 18 0" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/>`,
  laugh: `<path d="M13 21q4-4 8 0M27 21q4-4 8 0" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/><path d="M13 27h22q-2 11-11 11t-11-11z" fill="${RED}"/>`,
  cry: `<path d="M13 20q4 3 8 0M27 20q4 3 8 0" fill="none" stroke="${INK}" stroke-width="2.4" stroke-linecap="round"/><path d="M16 35q8-7 16 0" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/><path d="M15 24q-3 6 0 8q3-2 0-8zM33 24q-3 6 0 8q3-2 0-8z" fill="${BLUE}"/>`,
  angry: `<path d="M12 15l9 4M36 15l-9 4" stroke="${RED}" stroke-width="3" stroke-linecap="round"/>${EYES}<path d="M16 34q8-6 16 0" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/>`,
  shock: `<circle cx="17" cy="20" r="3.6" fill="none" stroke="${INK}" stroke-width="2"/><circle cx="31" cy="20" r="3.6" fill="none" stroke="${INK}" stroke-width="2"/><ellipse cx="24" cy="32" rx="4" ry="5" fill="${INK}"/>`,
  cool: `<path d="M10 18h28v3q-1 6-7 6t-6-5h-2q0 5-6 5t-7-6z" fill="${INK}"/><path d="M16 33q8 5 16-1" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/>`,
  sleepy: `<path d="M13 22h8M27 22h8" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/><circle cx="24" cy="33" r="3" fill="none" stroke="${INK}" stroke-width="2"/><text x="33" y="14" font-size="10" font-weight="700" fill="${BLUE}" font-family="sans-serif">z</text><text x="38" y="9" font-size="7" font-weight="700" fill="${BLUE}" font-family="sans-serif">z</text>`,
  sweat: `${EYES}<path d="M17 32h14" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/><path d="M36 10q-4 7 0 9q4-2 0-9z" fill="${BLUE}"/>`,
  love: `<path d="M17 25l-5-5a3 3 0 0 1 5-4a3 3 0 0 1 5 4zM31 25l-5-5a3 3 0 0 1 5-4a3 3 0 0 1 5 4z" fill="${RED}"/><path d="M15 30q9 8 18 0" fill="none" stroke="${INK}" stroke-width="2.6" stroke-linecap="round"/>`,
  thumbs: `<path d="M14 22h6l5-9q3 0 3 4l-1 5h7q3 0 3 3l-3 10q-1 2-3 2h-11z" fill="${GREEN}"/><rect x="10" y="22" width="5" height="15" rx="1.5" fill="${GREEN}"/>`,
  tea: `<path d="M12 20h20v8a10 10 0 0 1-20 0z" fill="${GREEN}"/><path d="M32 22h3a4 4 0 0 1 0 8h-4" fill="none" stroke="${GREEN}" stroke-width="2.4"/><path d="M18 9q-2 3 0 6M24 8q-2 3 0 6" fill="none" stroke="${BLUE}" stroke-width="2" stroke-linecap="round"/><rect x="10" y="38" width="26" height="2.6" rx="1.3" fill="${INK}"/>`,
  flower: `<g fill="${RED}"><circle cx="24" cy="14" r="6"/><circle cx="33.5" cy="21" r="6"/><circle cx="30" cy="32" r="6"/><circle cx="18" cy="32" r="6"/><circle cx="14.5" cy="21" r="6"/></g><circle cx="24" cy="24" r="5" fill="#e9b949"/>`,
};

/** The sticker `id` as SVG text (an unknown id: an empty disc). @param {string} id @returns {string} */
export function stickerSvg(id) {
  const face = /** @type {Record<string, string>} */ (FACES)[id] || "";
  return (
    `<svg viewBox="0 0 48 48" aria-hidden="true" focusable="false">` +
    `<circle cx="24" cy="24" r="22" fill="${PAPER}" stroke="${GREEN}" stroke-width="2.4"/>` +
    `<circle cx="24" cy="24" r="19" fill="none" stroke="${RED}" stroke-width="1" opacity=".35"/>` +
    `${face}</svg>`
  );
}

/** A sticker as an element, named by its label. @param {string} id @returns {HTMLElement} */
export function stickerEl(id) {
  const el = h("span.sticker", { role: "img", "aria-label": t(`stk_${id}`), "data-sticker": id });
  el.innerHTML = stickerSvg(id);
  return el;
}

/** The speech-bubble icon of the chat button (drawn, no emoji font needed). */
const BUBBLE_ICON = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 5h16a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1h-9l-5 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" fill="currentColor"/><circle cx="8.5" cy="10.5" r="1.3" fill="#145c45"/><circle cx="12" cy="10.5" r="1.3" fill="#145c45"/><circle cx="15.5" cy="10.5" r="1.3" fill="#145c45"/></svg>';

/**
 * A chat message as the server sends it: the sender's seat and one id.
 * @typedef {{type: "chat", seat: number, phrase?: string, sticker?: string}} ChatMessage
 */

/** One table's chat: the picker, the bubbles, the wait between messages and the muting. */
export class TableChat {
  /**
   * @param {string} tableId
   * @param {(msg: Record<string, unknown>) => boolean} send put a message on the table's socket
   * @param {() => void} redraw draw the table again (the button's grey, the picker)
   */
  constructor(tableId, send, redraw) {
    this.tableId = tableId;
    this.send = send;
    this.redraw = redraw;
    /** the picker is open */
    this.open = false;
    /** "phrase" or "sticker": the picker's page @type {"phrase"|"sticker"} */
    this.page = "phrase";
    /** when (Date.now) the player may speak again */
    this.until = 0;
    this.waitTimer = 0;
    /** the bubble shown beside each seat's bar, and when it goes @type {Map<number, {el: HTMLElement, timer: number}>} */
    this.bubbles = new Map();
  }

  get muteKey() {
    return `erren.chatmute.${this.tableId}`;
  }

  /** The opponent is muted at this table (this browser session). @returns {boolean} */
  opponentMuted() {
    try {
      return sessionStorage.getItem(this.muteKey) === "on";
    } catch {
      return false;
    }
  }

  toggleOpponent() {
    const on = !this.opponentMuted();
    try {
      if (on) sessionStorage.setItem(this.muteKey, "on");
      else sessionStorage.removeItem(this.muteKey);
    } catch {
      /* storage refused */
    }
    if (on) for (const [seat, b] of this.bubbles) if (b.el.dataset.mine !== "1") this.drop(seat);
    this.redraw();
  }

  /** Whether the wait between two messages is running. @returns {boolean} */
  cooling() {
    return Date.now() < this.until;
  }

  /** Grey the button for `ms` (the rest of the wait), then draw it again. @param {number} ms */
  wait(ms) {
    this.until = Date.now() + ms;
    window.clearTimeout(this.waitTimer);
    this.waitTimer = window.setTimeout(() => this.redraw(), ms + 20);
  }

  /** Say a phrase or show a sticker (nothing while the wait runs). @param {"phrase"|"sticker"} kind @param {string} id */
  say(kind, id) {
    if (this.cooling()) return;
    if (!this.send({ type: "chat", [kind]: id })) return;
    this.open = false;
    this.wait(CHAT_GAP_MS);
    this.redraw();
  }

  /** The server refused a message as too soon (`chat-too-fast`). @param {{retry_ms?: number}} params */
  refused(params) {
    const ms = Number(params && params.retry_ms) || CHAT_GAP_MS;
    this.wait(Math.min(ms, CHAT_GAP_MS));
    this.redraw();
  }

  /** A chat message heard: its bubble beside the sender's seat, unless muted.
   * @param {ChatMessage} msg @param {number} me the player's own seat */
  heard(msg, me) {
    const mine = msg.seat === me;
    if (!mine && (chatMuted() || this.opponentMuted())) return;
    const said = typeof msg.phrase === "string" ? h("span.chat-text", null, t(`chat_${msg.phrase}`)) : typeof msg.sticker === "string" ? stickerEl(msg.sticker) : null;
    if (!said) return;
    this.drop(msg.seat);
    const who = mine ? t("you") : t("opponent");
    const el = h(`div.chat-bubble${mine ? ".chat-mine" : ".chat-opp"}`, { role: "status", "data-seat": msg.seat, "data-mine": mine ? "1" : "0" }, h("span.sr-only", null, `${who}: `), said);
    const timer = window.setTimeout(() => this.drop(msg.seat), BUBBLE_MS);
    this.bubbles.set(msg.seat, { el, timer });
    this.place(document);
  }

  /** @param {number} seat */
  drop(seat) {
    const b = this.bubbles.get(seat);
    if (!b) return;
    window.clearTimeout(b.timer);
    b.el.remove();
    this.bubbles.delete(seat);
  }

  /** Put the bubbles beside their seats' bars (after each drawing of the board).
   * @param {ParentNode} root */
  place(root) {
    // one's own bubble goes above his hand (over his bar it would hide the hand's first tiles),
    // except on a phone held sideways, where the bar has a column of its own
    const sideways = window.matchMedia(SIDEWAYS).matches;
    for (const [seat, b] of this.bubbles) {
      const bar = root.querySelector(`.board .bar[data-seat="${seat}"]`);
      const above = b.el.dataset.mine === "1" && !sideways ? root.querySelector(".board .seat-mine > .hand-row") : null;
      const anchor = above || bar;
      if (anchor) anchor.append(b.el);
      else b.el.remove();
    }
  }

  stop() {
    window.clearTimeout(this.waitTimer);
    for (const seat of [...this.bubbles.keys()]) this.drop(seat);
  }

  /** The chat button of the table's top bar (greyed while the wait runs). @returns {HTMLElement} */
  buttonEl() {
    const icon = h("span.chat-icon", { "aria-hidden": "true" });
    icon.innerHTML = BUBBLE_ICON;
    return h(
      "button.ghost.chat-btn#btn-chat",
      {
        type: "button",
        "aria-expanded": this.open ? "true" : "false",
        "aria-label": t("chat_open"),
        title: t(this.cooling() ? "chat_wait" : "chat_open"),
        disabled: this.cooling(),
        onclick: () => {
          this.open = !this.open;
          this.redraw();
        },
      },
      icon,
    );
  }

  /** The picker (when open): the phrases or the stickers, and the opponent's mute switch. @returns {HTMLElement|null} */
  pickerEl() {
    if (!this.open) return null;
    const cool = this.cooling();
    /** @param {"phrase"|"sticker"} page @param {string} label */
    const tab = (page, label) =>
      h(`button.chat-tab${this.page === page ? ".on" : ""}`, { type: "button", role: "tab", "aria-selected": this.page === page ? "true" : "false", onclick: () => { this.page = page; this.redraw(); } }, label);
    const muted = this.opponentMuted();
    const items =
      this.page === "phrase"
        ? h("div.chat-phrases", { role: "tabpanel" }, ...PHRASES.map((id) => h("button.chat-phrase", { type: "button", "data-phrase": id, disabled: cool, onclick: () => this.say("phrase", id) }, t(`chat_${id}`))))
        : h("div.chat-stickers", { role: "tabpanel" }, ...STICKERS.map((id) => {
            const b = h("button.chat-sticker", { type: "button", "data-sticker": id, "aria-label": t(`stk_${id}`), title: t(`stk_${id}`), disabled: cool, onclick: () => this.say("sticker", id) });
            b.innerHTML = stickerSvg(id);
            return b;
          }));
    const box = h(
      "div.chat-picker",
      { role: "dialog", "aria-label": t("chat_title") },
      h(
        "div.chat-head",
        null,
        h("div.chat-tabs", { role: "tablist" }, tab("phrase", t("chat_phrases")), tab("sticker", t("chat_stickers"))),
        h(`button.chat-mute${muted ? ".on" : ""}#btn-mute-opp`, { type: "button", "aria-pressed": muted ? "true" : "false", onclick: () => this.toggleOpponent() }, t(muted ? "chat_unmute_opp" : "chat_mute_opp")),
        h("button.chat-close", { type: "button", "aria-label": t("set_close"), onclick: () => { this.open = false; this.redraw(); } }, "×"),
      ),
      chatMuted() ? h("p.chat-note", null, t("chat_all_muted")) : null,
      items,
    );
    box.addEventListener("keydown", (e) => {
      e.stopPropagation(); // not the table's shortcuts
      if (e.key === "Escape") {
        this.open = false;
        this.redraw();
      }
    });
    return box;
  }
}
