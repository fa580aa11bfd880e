// 何切る drills (#/drills, #/drills/<family>): a position from a hand drawn like the table, the
// player taps the tile he would discard, then sees 大师's tile, what his choice is expected to
// cost, the hint button's reason for both and every discard's expected points; a score for the
// session.  The puzzles and answers are the server's (GET /drills/next, POST
// /drills/{id}/answer: precomputed, erren.review.drills); nothing here computes a value.

import { api } from "./api.js";
import { boardEl, familyBoard } from "./board.js";
import { h } from "./dom.js";
import { familyIds, familyName } from "./families.js";
import { failure, getLang, t } from "./i18n.js";
import { reasonText } from "./hints.js";
import { screenToken } from "./route.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {{id: string, family: string, observation: Obs, tiles: string[]}} Puzzle */
/** @typedef {{code: string, params: Record<string, number>, zh: string, en: string}} Why */
/**
 * The server's answer: 大师's tile, the chosen one's loss, every discard's EV and loss.
 * @typedef {{id: string, family: string, unit: {zh: string, en: string}, tile: string, answer: string, correct: boolean,
 *   loss: number, choices: Array<{tile: string, ev: number, loss: number}>, reasons: {answer: Why, tile: Why}, worlds: number}} Answer
 */

/** This session's score (kept while the page is open). */
const score = { asked: 0, right: 0, loss: 0 };

/** A number of points as shown: two decimals. @param {number} x @returns {string} */
export function points(x) {
  return x.toFixed(2);
}

/** The observation a board draws: the fields a puzzle leaves out, at their quiet values. @param {Obs} o @returns {Obs} */
function fullState(o) {
  return /** @type {Obs} */ (Object.assign({ trustee: [false, false], timer: null, result: null, legal: [], wins: [], dice: [], last_n: 0 }, o));
}

/** The board of a puzzle: the tiles to discard clickable until it is answered, then 大师's marked.
 * @param {Puzzle} p @param {Answer|null} done @param {(tile: string) => void} pick @returns {HTMLElement} */
function puzzleBoard(p, done, pick) {
  const st = fullState(p.observation);
  const me = st.player;
  const { marks, indicators } = familyBoard(p.family, st, { events: [], seat: me, legal: [] });
  const names = [t("dr_seat", 1), t("dr_seat", 2)];
  return boardEl({
    family: p.family, me, names, state: st, open: false, marks, indicators,
    lastDiscard: null, oppDrew: false, online: [true, true], ready: [true, true], handNo: 1,
    timerEnd: null, lastText: "",
    clickable: (tile) => !done && p.tiles.includes(tile),
    onTile: (_i, tile) => pick(tile),
    advised: done ? done.answer : null,
  });
}

/** "打 5m" with the tile drawn. @param {string} word @param {string} tile @param {string} cls @returns {HTMLElement} */
function moveLine(word, tile, cls) {
  return h(`p.dr-move.${cls}`, null, h("span", null, word), tileEl(tile, { size: "s", lang: getLang() }));
}

/** The answer: right or wrong, both tiles, the loss, the reasons, every discard's EV. @param {Answer} a @returns {HTMLElement} */
function answerEl(a) {
  const lang = getLang();
  const unit = lang === "zh" ? a.unit.zh : a.unit.en;
  const rows = a.choices.map((c) =>
    h(
      `tr${c.tile === a.answer ? ".dr-best" : ""}${c.tile === a.tile ? ".dr-mine" : ""}`,
      { "data-tile": c.tile },
      h("td", null, tileEl(c.tile, { size: "xs", lang })),
      h("td.dr-ev", null, points(c.ev)),
      h("td.dr-cost", null, points(c.loss)),
    ),
  );
  return h(
    `section.panel.dr-answer${a.correct ? ".right" : ".wrong"}`,
    { "aria-live": "polite" },
    h("h3.dr-verdict", null, t(a.correct ? "dr_right" : "dr_wrong")),
    moveLine(t("dr_master"), a.answer, "dr-master"),
    h("p.dr-why.dr-why-master", null, t("dr_why"), reasonText(a.reasons.answer)),
    a.correct ? null : moveLine(t("dr_yours"), a.tile, "dr-yours"),
    a.correct ? null : h("p.dr-why.dr-why-yours", null, t("dr_why"), reasonText(a.reasons.tile)),
    h("p.dr-loss", null, t("dr_loss", points(a.loss), unit)),
    h("table.dr-choices", null, h("thead", null, h("tr", null, h("th", null, t("dr_tile")), h("th", null, t("dr_ev")), h("th", null, t("dr_lost")))), h("tbody", null, ...rows)),
    h("p.muted.dr-method", null, t("dr_method", a.worlds)),
  );
}

/** "本次 3 题，答对 2 题，期望损失合计 1.50". @returns {string} */
function scoreText() {
  return t("dr_score", score.asked, score.right, points(score.loss));
}

/** The family picker: one button per family, the current one pressed. @param {string} family @returns {HTMLElement} */
function pickerEl(family) {
  return h(
    "nav.dr-families",
    { "aria-label": t("family") },
    ...familyIds().map((id) =>
      h("a.button.dr-family", { href: `#/drills/${id}`, "aria-current": id === family ? "page" : null, "data-family": id }, familyName(id)),
    ),
  );
}

/**
 * The drills screen of a family (the first family when none is named).
 * @param {HTMLElement} root @param {string|undefined} wanted
 */
export async function drillsScreen(root, wanted) {
  const current = screenToken();
  const family = wanted && familyIds().includes(wanted) ? wanted : familyIds()[0] || "";
  /** @type {Puzzle|null} */
  let puzzle = null;
  /** @type {Answer|null} */
  let done = null;
  let busy = false;
  const scoreEl = h("p.dr-score", { "aria-live": "polite" }, scoreText());
  const body = h("div.dr-body", null, h("div.spinner"));
  root.replaceChildren(
    h("div.drills#drills", null,
      h("section.panel.dr-head", null, h("h2", null, t("dr_title")), h("p.muted", null, t("dr_intro")), pickerEl(family), scoreEl),
      body,
    ),
  );

  const draw = () => {
    if (!current() || !puzzle) return;
    const p = puzzle;
    const next = h("button.primary.dr-next", { type: "button", onclick: () => load(p.id) }, t("dr_next"));
    body.dataset.id = p.id;
    body.replaceChildren(h("p.dr-ask", null, done ? "" : t("dr_pick")), h("div.dr-board", null, puzzleBoard(p, done, pick)));
    if (done) body.append(answerEl(done), h("p.dr-actions", null, next));
    scoreEl.textContent = scoreText();
    if (done) next.focus();
  };

  /** @param {string} tile */
  const pick = (tile) => {
    if (!puzzle || done || busy) return;
    busy = true;
    const p = puzzle;
    api("POST", `/drills/${encodeURIComponent(p.id)}/answer`, { tile })
      .then((/** @type {Answer} */ a) => {
        busy = false;
        if (puzzle !== p) return;
        done = a;
        score.asked += 1;
        if (a.correct) score.right += 1;
        score.loss += a.loss;
        draw();
      })
      .catch((e) => {
        busy = false;
        body.append(h("p.error", null, failure(e)));
      });
  };

  /** @param {string|null} after */
  const load = async (after) => {
    const q = `family=${encodeURIComponent(family)}${after ? `&after=${encodeURIComponent(after)}` : ""}`;
    try {
      puzzle = await api("GET", `/drills/next?${q}`);
    } catch (e) {
      if (current()) body.replaceChildren(h("p.muted.dr-none", null, failure(e)));
      return;
    }
    done = null;
    draw();
  };
  await load(null);
}
