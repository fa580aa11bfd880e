// What a player who cannot see the table hears: one polite live region (`#announce`, visually
// hidden) read out by screen readers.  Each draw (his own with its tile, the opponent's only that
// he drew), discard, claim, 报听 and win is said as the line about the latest move says it
// (events.js), the prompt when it changes, the timer once it runs low on his own decision, and
// the result at the settlement.  Only what the client received is said: the server never sends
// the opponent's concealed tiles.  托管's switches are told by the toasts (a live region of their
// own), so they are not said here again.

import { describeEvent, isEngineEvent } from "./events.js";
import { getLang, t } from "./i18n.js";
import { tileName } from "./tiles.js";
import { familyEvent } from "./families.js";

/** @typedef {import("./table.js").GameEvent} GameEvent */
/** @typedef {import("./prompts.js").Prompt} Prompt */

/** The event kinds said as they come (the table's own setup, passes and 托管 are not), and a
 * family's own that say so (families.js). */
const SAID = new Set([
  "draw", "discard", "ting", "chi", "peng", "minggang", "angang", "jiagang", "flower",
  "hu", "zimo", "huangzhuang", "escape", "timeout",
]);

/** Whether an event of `kind` is said as it comes. @param {string} kind @returns {boolean} */
function saidAsItComes(kind) {
  return SAID.has(kind) || !!familyEvent(kind)?.said;
}

/** The seconds left on the player's own decision at which he is warned, once. */
export const WARN_AT = 5;

/** The most lines the region keeps (a screen reader reads only the new ones). */
const KEEP = 300;

/** The last prompt said, and the deadline already warned about. */
let lastPrompt = "";
let warned = "";

/** The live region, made once if the page has none. @returns {HTMLElement} */
function region() {
  let el = document.getElementById("announce");
  if (!el) {
    el = document.createElement("div");
    el.id = "announce";
    el.className = "sr-only";
    el.setAttribute("role", "log");
    el.setAttribute("aria-live", "polite");
    el.setAttribute("aria-relevant", "additions");
    document.body.append(el);
  }
  return el;
}

/** Say a line (added to the region; the oldest dropped past KEEP). @param {string} text */
export function announce(text) {
  const line = text.trim();
  if (!line) return;
  const el = region();
  const p = document.createElement("p");
  p.textContent = line;
  el.append(p);
  while (el.childElementCount > KEEP && el.firstElementChild) el.firstElementChild.remove();
}

/** Forget what was said (a new table): the lines, the prompt and the warned deadline. */
export function clearAnnouncements() {
  region().replaceChildren();
  lastPrompt = "";
  warned = "";
}

/**
 * Say the events that just arrived, in the order they happened.
 * @param {GameEvent[]} events @param {number} seat the player @param {string[]} names the seats' names
 * @param {(result: any) => string} said the sentence of a settlement's result (tablescreen.js)
 */
export function announceEvents(events, seat, names, said) {
  for (const ev of events) {
    if (ev.kind === "settlement") announce(said(ev.result || {}));
    else if (isEngineEvent(ev) && saidAsItComes(ev.kind)) announce(describeEvent(ev, seat, names));
  }
}

/** Say the player's prompt when it changes, with the buttons he may press (not the opponent's
 * turn: the events say it).
 * @param {Prompt|null} p @param {boolean} theirs the prompt is only that the opponent plays
 * @param {string[]} buttons the labels of the action buttons offered */
export function announcePrompt(p, theirs, buttons) {
  const lang = getLang();
  const offered = buttons.length ? `(${buttons.join(" / ")})` : "";
  const text = p ? [p.text, ...p.tiles.map((x) => tileName(x, lang)), p.choices || "", offered].join(" ").trim() : "";
  if (text === lastPrompt) return;
  lastPrompt = text;
  if (text && !theirs) announce(text);
}

/** Warn once when the player's own countdown reaches WARN_AT seconds.
 * @param {string} deadline the countdown's end @param {number} left seconds left */
export function warnTime(deadline, left) {
  if (left > WARN_AT || left <= 0 || warned === deadline) return;
  warned = deadline;
  announce(t("ann_time", left));
}
