// The hints a player expects at the table: the waits of each discard that leaves the hand
// ready (on hover, or a long press on a touch screen), the waits of the hand held, the reason
// given with the hint, the switch that turns them on or off, and the quick review after a hand.
// Everything shown comes from the server's `hints` (the player's own state) and its `advice`
// and `review` messages, all worked out from what the player can see.

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./schema.js").Hints} Hints */
/** @typedef {{code: string, params: Record<string, number>}} Reason */
/** @typedef {{shanten: number, left: number}} Shape */
/**
 * The quick review of a hand (the server's `review` message).
 * @typedef {{game: number, count: number, agreed: number, decisions: Array<{n: number, hand: string[], drawn: string|null, played: string, expert: string, played_after: Shape, expert_after: Shape|null}>}} Review
 */

const LONG_PRESS_MS = 450;

/** The localStorage key of the switch for one family's tables. @param {string} family @returns {string} */
function key(family) {
  return `erren.hints.${family}`;
}

/** Whether hints are on at this family's tables (on unless switched off). @param {string} family @returns {boolean} */
export function hintsOn(family) {
  try {
    return localStorage.getItem(key(family)) !== "off";
  } catch {
    return true;
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

/** A shape after a discard, in words. @param {Shape|null} s @returns {string} */
function shapeText(s) {
  if (!s) return t("hn_rv_win");
  return s.shanten === 0 ? t("hn_rv_ready", s.left) : t("hn_rv_away", s.shanten, s.left);
}

/** The tile of an action (`discard:5m` → 5m), else the action. @param {string} action @returns {string} */
function tileOf(action) {
  const [, arg] = action.split(":");
  return arg || action;
}

/**
 * The review at the settlement: a button until it is asked, then the costliest decisions.
 * @param {Review|null} review @param {boolean} asked @param {() => void} ask @returns {HTMLElement}
 */
export function reviewEl(review, asked, ask) {
  const box = h("div.hn-review");
  if (!review) {
    box.append(h("button.hn-review-ask", { type: "button", disabled: asked, onclick: ask }, asked ? t("hn_rv_wait") : t("hn_rv_ask")));
    return box;
  }
  const lang = getLang();
  box.append(h("h3", null, t("hn_rv_title")));
  if (!review.count) {
    box.append(h("p.hn-rv-sum", null, t("hn_rv_nothing")));
    return box;
  }
  box.append(h("p.hn-rv-sum", null, t("hn_rv_sum", review.count, review.agreed)));
  if (!review.decisions.length) box.append(h("p", null, t("hn_rv_none")));
  for (const d of review.decisions) {
    const played = tileOf(d.played);
    const expert = tileOf(d.expert);
    const hand = h("span.hn-rv-hand");
    let markedPlayed = false;
    let markedExpert = false;
    for (const tile of d.hand) {
      let cls = "";
      if (!markedPlayed && tile === played) {
        cls = "hn-played";
        markedPlayed = true;
      } else if (!markedExpert && tile === expert) {
        cls = "hn-expert";
        markedExpert = true;
      }
      hand.append(tileEl(tile, { size: "xs", lang, cls }));
    }
    const verb = d.expert.split(":")[0];
    const theirs = verb === "discard" || verb === "ting" || verb === "discardgold" ? h("span", null, t("hn_rv_expert"), tileEl(expert, { size: "xs", lang })) : h("span", null, t("hn_rv_expert_win"));
    box.append(
      h(
        "div.hn-rv-row",
        null,
        hand,
        h("div.hn-rv-line", null, h("span", null, t("hn_rv_you"), tileEl(played, { size: "xs", lang })), h("small", null, shapeText(d.played_after))),
        h("div.hn-rv-line", null, theirs, h("small", null, shapeText(d.expert_after))),
      ),
    );
  }
  return box;
}
