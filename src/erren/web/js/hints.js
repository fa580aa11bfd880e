// The hints a player expects at the table: the waits of each discard that leaves the hand
// ready (on hover, or a long press on a touch screen), the waits of the hand held, the reason
// given with the hint, the switch that turns them on or off, and the quick review after a hand.
// Everything shown comes from the server's `hints` (the player's own state) and its `advice`
// and `review` messages, all worked out from what the player can see.

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { tileEl } from "./tiles.js";
import { familyVerb } from "./families.js";

/** @typedef {import("./schema.js").Hints} Hints */
/** @typedef {import("./i18n.js").Lang} Lang */
/** @typedef {{code: string, params: Record<string, number>}} Reason */
/** @typedef {{shanten: number, left: number|null}} Shape */
/**
 * One decision the computer would have made otherwise: its kind (`win`, `ting`, `claim`,
 * `discard`), the hand held, the discard on offer (a claim or a win on it) and both moves.
 * @typedef {{kind: string, n: number, hand: string[], drawn: string|null, offered: string|null, played: string, expert: string, played_after: Shape|null, expert_after: Shape|null}} ReviewDecision
 */
/**
 * The quick review of a hand (the server's `review` message): the decisions in all and by
 * kind, how many as the computer would, and the costliest of the others.
 * @typedef {{game: number, count: number, agreed: number, kinds: Record<string, {count: number, agreed: number}>, decisions: ReviewDecision[]}} Review
 */

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

/** A shape after a move, in words (`left` null: a claim, a pass or a kong, by shanten alone). @param {Shape|null} s @returns {string} */
function shapeText(s) {
  if (!s) return t("hn_rv_win");
  if (s.left === null || s.left === undefined) return s.shanten === 0 ? t("hn_rv_ready_only") : t("hn_rv_away_only", s.shanten);
  return s.shanten === 0 ? t("hn_rv_ready", s.left) : t("hn_rv_away", s.shanten, s.left);
}

const KINDS = ["win", "ting", "claim", "discard"];
/** The shared moves that throw a tile (a family's own say so: their button's `throws`). */
const THROWS = ["discard", "ting"];

/** The tile a move throws (`discard:5m` → 5m), else null. @param {string} action @returns {string|null} */
function thrown(action) {
  const [verb, arg] = action.split(":");
  return (THROWS.includes(verb) || familyVerb(verb)?.throws) && arg ? arg : null;
}

/** The tiles of a move's argument (`345m` → 3m 4m 5m, `5z` → 5z). @param {string} arg @returns {string[]} */
function tilesOf(arg) {
  const m = /^(\d+)([mpsz])$/.exec(arg);
  return m ? [...m[1]].map((d) => d + m[2]) : [];
}

/** A move in words and tiles: "打 5m", "报听打 5m", "碰", "吃 345m", "过", "胡". @param {string} action @param {Lang} lang @returns {HTMLElement} */
function moveEl(action, lang) {
  const [verb, arg] = action.split(":");
  const word = verb === "discard" ? t("hn_rv_throw") : verb === "ting" ? t("hn_rv_ting") : ["minggang", "angang", "jiagang"].includes(verb) ? t("a_gang") : t(`a_${verb}`);
  return h("span.hn-rv-move", null, word, ...(arg ? tilesOf(arg).map((tile) => tileEl(tile, { size: "xs", lang })) : []));
}

/** The hand at a decision, the tile he threw and the one the computer would have marked. @param {ReviewDecision} d @param {Lang} lang @returns {HTMLElement} */
function handEl(d, lang) {
  const played = thrown(d.played);
  const expert = thrown(d.expert);
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
  if (d.offered) hand.append(h("span.hn-rv-offered", null, t("hn_rv_offered"), tileEl(d.offered, { size: "xs", lang })));
  return hand;
}

/** One decision: its kind, the hand, both moves and what each leaves. @param {ReviewDecision} d @param {Lang} lang @returns {HTMLElement} */
function decisionEl(d, lang) {
  return h(
    "div.hn-rv-row",
    { "data-kind": d.kind },
    h("div.hn-rv-kind", null, t(`hn_rv_k_${KINDS.includes(d.kind) ? d.kind : "discard"}`)),
    handEl(d, lang),
    h("div.hn-rv-line", null, h("span", null, t("hn_rv_you"), moveEl(d.played, lang)), h("small", null, shapeText(d.played_after))),
    h("div.hn-rv-line", null, h("span", null, t("hn_rv_expert"), moveEl(d.expert, lang)), h("small", null, shapeText(d.expert_after))),
  );
}

/** "出牌 5/7 · 吃碰杠 1/2", the kinds met in this hand. @param {Review} review @returns {string} */
function kindsText(review) {
  const kinds = review.kinds || {};
  return KINDS.filter((k) => kinds[k] && kinds[k].count)
    .map((k) => t("hn_rv_kind_n", t(`hn_rv_k_${k}`), kinds[k].agreed, kinds[k].count))
    .join(" · ");
}

/**
 * The review at the settlement: a button until it is asked, then how many decisions were the
 * computer's own and the costliest of the others (or that every one was).
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
  const kinds = kindsText(review);
  if (kinds) box.append(h("p.hn-rv-kinds", null, kinds));
  if (!review.decisions.length) {
    box.append(h("p.hn-rv-same", null, t("hn_rv_none")));
    return box;
  }
  box.append(h("p.hn-rv-diff", null, t("hn_rv_diff")));
  for (const d of review.decisions) box.append(decisionEl(d, lang));
  return box;
}
