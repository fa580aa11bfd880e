// The hints a player expects at the table: the waits of each discard that leaves the hand
// ready (on hover, or a long press on a touch screen), the waits of the hand held, the reason
// given with the hint and the switch that turns them on or off (the review after a hand is
// review.js's). Everything shown comes from the server's `hints` (the player's own state) and
// its `advice` messages, all worked out from what the player can see.

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./schema.js").Hints} Hints */
/** @typedef {import("./i18n.js").Lang} Lang */
/** @typedef {{code: string, params: Record<string, number>}} Reason */

const LONG_PRESS_MS = 450;

/** The localStorage key of the switch for one family's tables. @param {string} family @returns {string} */
function key(family) {
  return `erren.hints.${family}`;
}

/** The localStorage key of the settings' switch, for every family's tables. */
const ALL_KEY = "erren.hints";

/** Whether hints are on at this family's tables: the table's own switch if it was used, else
 * the settings' (on unless switched off). @param {string} family @returns {boolean} */
export function hintsOn(family) {
  try {
    const own = localStorage.getItem(key(family));
    return (own || localStorage.getItem(ALL_KEY)) !== "off";
  } catch {
    return true;
  }
}

/** Whether the settings' hints switch is on (every family's tables). @returns {boolean} */
export function allHintsOn() {
  try {
    return localStorage.getItem(ALL_KEY) !== "off";
  } catch {
    return true;
  }
}

/** Switch hints on or off at every family's tables: each family's own switch follows.
 * @param {boolean} on */
export function setAllHints(on) {
  try {
    const mine = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k && k.startsWith(`${ALL_KEY}.`)) mine.push(k);
    }
    for (const k of mine) localStorage.removeItem(k);
    localStorage.setItem(ALL_KEY, on ? "on" : "off");
  } catch {
    /* private mode: the switch holds for this page only */
  }
}

/** Switch hints on or off for this family's tables (remembered). @param {string} family @param {boolean} on */
export function setHintsOn(family, on) {
  try {
    localStorage.setItem(key(family), on ? "on" : "off");
  } catch {
    /* private mode: the switch holds for this page only */
  }
}

/** "剩 N 张" / "N left". @param {number} n @returns {string} */
function leftText(n) {
  return t("hn_left", n);
}

/** A row of waits: each tile drawn small with its unseen copies. @param {Array<[string, number]>} waits @returns {HTMLElement} */
export function waitsEl(waits) {
  const lang = getLang();
  const row = h("span.hn-waits");
  for (const [tile, n] of waits) {
    row.append(h(`span.hn-wait${n === 0 ? ".hn-none" : ""}`, null, tileEl(tile, { size: "xs", lang }), h("small", null, leftText(n))));
  }
  const total = waits.reduce((s, [, n]) => s + n, 0);
  row.append(h("span.hn-total", null, t("hn_total", total)));
  return row;
}

/**
 * Give a hand tile its ready hint: a popover of the waits shown on hover and on a long press
 * (a long press does not also discard the tile).  Called before the tile's click handler.
 * @param {HTMLElement} el @param {Array<[string, number]>} waits
 */
export function attachReady(el, waits) {
  el.classList.add("readies");
  const pop = h("span.hn-pop", { role: "tooltip" }, h("span.hn-head", null, t("hn_ready")), waitsEl(waits));
  el.append(pop);
  el.setAttribute("aria-label", `${el.getAttribute("aria-label") || ""} · ${t("hn_ready")} ${waits.map(([w, n]) => `${w}×${n}`).join(" ")}`);
  let timer = 0;
  let pressed = false;
  el.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return;
    pressed = false;
    timer = window.setTimeout(() => {
      pressed = true;
      el.classList.add("hn-open");
    }, LONG_PRESS_MS);
  });
  const stop = () => window.clearTimeout(timer);
  el.addEventListener("pointerup", stop);
  el.addEventListener("pointercancel", stop);
  el.addEventListener("pointerleave", () => {
    stop();
    el.classList.remove("hn-open");
  });
  el.addEventListener("contextmenu", (e) => e.preventDefault());
  el.addEventListener("click", (e) => {
    if (pressed) {
      // the long press showed the hint: this click is its release, not a discard
      pressed = false;
      e.stopImmediatePropagation();
      window.setTimeout(() => el.classList.remove("hn-open"), 1500);
    }
  });
}

/** The waits of the hand held, when it is ready (between turns). @param {Hints|undefined} hints @returns {HTMLElement|null} */
export function heldWaitsEl(hints) {
  if (!hints || !hints.waits || !hints.waits.length) return null;
  return h("div.hn-held", null, h("span.hn-head", null, t("hn_waiting")), waitsEl(hints.waits));
}

/** The hint's reason in the player's language. @param {Reason|null|undefined} r @returns {string} */
export function reasonText(r) {
  if (!r) return "";
  const p = r.params || {};
  switch (r.code) {
    case "win":
      return t("hn_r_win");
    case "ready":
      return t("hn_r_ready", p.kinds, p.left);
    case "ting":
      return t("hn_r_ting", p.kinds, p.left);
    case "keeps":
      return t("hn_r_keeps", p.left, p.kinds, p.shanten);
    case "claim":
      return p.shanten === 0 ? t("hn_r_claim_ready") : t("hn_r_claim", p.shanten);
    case "pass":
      return t("hn_r_pass");
    case "kong":
      return t("hn_r_kong");
    default:
      return t("hn_r_other");
  }
}

/** The switch of the hints at the table. @param {boolean} on @param {() => void} toggle @returns {HTMLElement} */
export function hintSwitchEl(on, toggle) {
  return h(
    `button.switch.hn-switch${on ? ".on" : ""}`,
    { type: "button", role: "switch", "aria-checked": on ? "true" : "false", title: t("hn_switch_title"), onclick: toggle },
    h("span.knob"),
    t("hn_switch"),
  );
}
