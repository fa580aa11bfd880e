// The guided first hand: a fixed guobiao-2p deal played by the engine (GET /tutorial, see
// erren.rules.tutorial). Each step shows the learner's own observation and a prompt; only the
// taught move can be made (a tile to click, or a button), then the next step follows. The end
// shows the scored win, each fan linked to its rule entry. Remembered in localStorage.

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { sortTiles } from "./notation.js";
import { settlementEl } from "./settle.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./schema.js").Observation} Observation */
/** @typedef {import("./schema.js").Tutorial} Tutorial */

export const SEEN_KEY = "erren.tutorial.seen";

/** Has this browser been offered (or taken) the tutorial? */
export function tutorialSeen() {
  return localStorage.getItem(SEEN_KEY) === "1";
}

/** Remember the offer. */
export function markTutorialSeen() {
  localStorage.setItem(SEEN_KEY, "1");
}

/** The lobby's first-visit offer (not modal). @param {() => void} onStart @returns {HTMLElement|null} */
export function tutorialOffer(onStart) {
  if (tutorialSeen()) return null;
  const el = h(
    "div.tutorial-offer",
    null,
    h("span", null, t("rules_first_visit")),
    h("button.primary.tutorial-start", { type: "button", onclick: () => { markTutorialSeen(); el.remove(); onStart(); } }, t("rules_start")),
    h("button.ghost.tutorial-dismiss", { type: "button", onclick: () => { markTutorialSeen(); el.remove(); } }, t("rules_dismiss")),
  );
  return el;
}

/** @type {HTMLElement|null} */
let layer = null;

export function closeTutorial() {
  if (layer) layer.remove();
  layer = null;
}

/** @param {string[]} tiles @param {string} size @param {string} [cls] */
function row(tiles, size, cls = "") {
  const lang = getLang();
  return h("div.tut-row", null, ...tiles.map((x) => tileEl(x, { size: /** @type {"s"|"m"} */ (size), lang, cls })));
}

/** Open the guided hand over the page. @param {() => void} onClose */
export async function openTutorial(onClose) {
  closeTutorial();
  markTutorialSeen();
  const card = h("div.tut-card", { role: "dialog", "aria-label": t("rules_tutorial") }, h("div.spinner"));
  layer = h("div.tut-back", null, card);
  document.body.append(layer);
  const mine = layer;
  /** @type {Tutorial} */
  let data;
  try {
    const res = await fetch("/tutorial");
    if (!res.ok) throw new Error(`tutorial: ${res.status}`);
    data = await res.json();
  } catch (e) {
    card.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e))), h("button", { type: "button", onclick: onClose }, t("rules_close")));
    return;
  }
  if (layer !== mine) return;
  let index = 0;
  const render = () => {
    const lang = getLang();
    const head = h("div.tut-head", null, h("h2", null, t("rules_tutorial")), h("button.ghost.tut-close", { type: "button", onclick: onClose, "aria-label": t("rules_close") }, "✕"));
    if (index >= data.steps.length) {
      card.replaceChildren(head, h("p.tut-done", null, t("rules_done")), endEl(data.ruleset, data.end, onClose));
      return;
    }
    const step = data.steps[index];
    const o = step.obs;
    const [verb, arg] = step.move.split(":");
    const prompt = h("div.tut-prompt", { "data-step": step.id }, h("div.tut-count", null, t("rules_next_step", index + 1, data.steps.length)), h("p", null, lang === "zh" ? step.zh : step.en));
    const note = h("p.tut-wrong", { hidden: true }, t("rules_wrong"));
    const advance = () => {
      index += 1;
      render();
    };
    const wrong = () => {
      note.hidden = false;
    };
    // the hand: sorted, the tile just drawn apart at the right end (as at the table)
    const hand = [...o.hand];
    const drawn = o.last_drawn && hand.includes(o.last_drawn) && index > 0 ? o.last_drawn : null;
    if (drawn) hand.splice(hand.indexOf(drawn), 1);
    const tiles = sortTiles(hand);
    if (drawn) tiles.push(drawn);
    const handEl = h("div.tut-hand");
    tiles.forEach((x, i) => {
      if (drawn && i === tiles.length - 1) handEl.append(h("span.gap"));
      const teach = verb === "discard" && x === arg;
      const el = tileEl(x, { size: "m", lang, cls: teach ? "teach" : "" });
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.addEventListener("click", () => (teach ? advance() : wrong()));
      handEl.append(el);
    });
    const melds = h("div.tut-melds", null, ...o.melds[0].map((m) => row(m.tiles, "s", "meld")));
    /** @type {Record<string, string>} */
    const labels = { peng: t("rules_peng"), ting: t("rules_ting"), hu: t("rules_hu") };
    const buttons = h("div.tut-buttons");
    if (verb !== "discard") {
      buttons.append(h(`button.primary.tut-act.act-${verb}`, { type: "button", onclick: advance }, labels[verb] || step.move));
      if (o.legal.includes("pass")) buttons.append(h("button.tut-act.act-pass", { type: "button", onclick: wrong }, t("a_pass")));
    }
    const opp = h(
      "div.tut-opp",
      null,
      h("div.tut-label", null, t("rules_opponent")),
      row(Array(o.concealed_count[1]).fill("back"), "s"),
      row(o.discards[1], "s"),
    );
    const me = h("div.tut-me", null, h("div.tut-label", null, t("rules_you")), row(o.discards[0], "s"), melds, handEl);
    card.replaceChildren(head, prompt, opp, me, buttons, note);
  };
  render();
}

/**
 * The table's own settlement of the win (its fan rows link to their rule entries).
 * @param {string} family the guided hand's @param {Observation} end @param {() => void} onClose
 */
function endEl(family, end, onClose) {
  return settlementEl({
    end: { result: end.result, beans: null, stake: 0 },
    me: 0,
    family,
    names: [t("rules_you"), t("rules_opponent")],
    options: {},
    streak: 0,
    marks: [],
    waiting: false,
    opponentReady: false,
    closed: true,
    onNext: null,
    onLeave: onClose,
    onReplay: null,
  });
}
