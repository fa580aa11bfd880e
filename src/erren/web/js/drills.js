// 何切る drills (#/drills, #/drills/<family>): a position from a hand drawn like the table, the
// player taps the tile he would discard, then sees 大师's tile, what his choice is expected to
// cost, the hint button's reason for both and every discard's expected points; a score for the
// session.  The puzzles and answers are the server's (GET /drills/next, POST
// /drills/{id}/answer: precomputed, erren.review.drills); nothing here computes a value.
// #/drills/<family>/mine: a registered player's own puzzles (his costliest discards, made after
// each hand's review: erren.server.owndrills), newest unanswered first, each answer saying which
// hand it came from with a link to its replay and review.

import { ApiError, api } from "./api.js";
import { boardEl, familyBoard } from "./board.js";
import { h } from "./dom.js";
import { familyIds, familyName } from "./families.js";
import { failure, getLang, t, unitWord } from "./i18n.js";
import { reasonText } from "./hints.js";
import { screenToken } from "./route.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {{game: number, seat: number, step: number}} Source */
/** @typedef {{id: string, family: string, observation: Obs, tiles: string[], source?: Source}} Puzzle */
/** @typedef {import("./api.js").User} User */
/** @typedef {{code: string, params: Record<string, number>, zh: string, en: string}} Why */
/**
 * The server's answer: 大师's tile, the chosen one's loss, every discard's EV and loss.
 * @typedef {{id: string, family: string, unit: {zh: string, en: string, en_many?: string}, tile: string, answer: string, correct: boolean,
 *   loss: number, choices: Array<{tile: string, ev: number, loss: number}>, reasons: {answer: Why, tile: Why}, worlds: number,
 *   source?: Source}} Answer
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
    h("p.dr-loss", null, t("dr_loss", points(a.loss), unitWord(a.unit, points(a.loss)))),
    h("table.dr-choices", null, h("thead", null, h("tr", null, h("th", null, t("dr_tile")), h("th", null, t("dr_ev")), h("th", null, t("dr_lost")))), h("tbody", null, ...rows)),
    h("p.muted.dr-method", null, t("dr_method", a.worlds)),
    a.source ? sourceEl(a.source) : null,
  );
}

/** Where one of his own puzzles came from: the hand, with a link to its replay and review
 * opened at the puzzle's position.
 * @param {Source} s @returns {HTMLElement} */
function sourceEl(s) {
  return h(
    "p.dr-source",
    null,
    t("dr_source", s.game, s.step),
    " ",
    h("a.dr-replay", { href: `#/replay/${s.game}?review=${s.seat}&step=${s.step}` }, t("dr_replay")),
  );
}

/** Said to a guest (or a visitor) who opened his own puzzles: they are a registered player's;
 * the corpus is shown instead. @returns {HTMLElement} */
function guestNoteEl() {
  return h("div.dr-guest", { role: "status" }, h("p", null, t("dr_mine_guest")), h("a.button.primary.dr-register", { href: "#/register" }, t("account_register")));
}

/** "本次 3 题，答对 2 题，期望损失合计 1.50". @returns {string} */
function scoreText() {
  return t("dr_score", score.asked, score.right, points(score.loss));
}

/** The family picker: one button per family, the current one pressed; for a registered player
 * "my mistakes" beside them (his count of the family filled in by `showCount`), a switch
 * between the corpus and his own. @param {string} family @param {boolean} mine
 * @param {boolean} registered @returns {HTMLElement} */
function pickerEl(family, mine, registered) {
  const tail = mine ? "/mine" : "";
  return h(
    "nav.dr-families",
    { "aria-label": t("family") },
    ...familyIds().map((id) =>
      h("a.button.dr-family", { href: `#/drills/${id}${tail}`, "aria-current": id === family ? "page" : null, "data-family": id }, familyName(id)),
    ),
    registered
      ? h(
          "a.button.dr-own",
          { href: mine ? `#/drills/${family}` : `#/drills/${family}/mine`, "aria-pressed": mine ? "true" : "false" },
          t("dr_mine"),
          h("span.dr-own-count", null, ""),
        )
      : null,
  );
}

/** His count of puzzles of `family` (GET /me/drills), into `el`. @param {string} family @param {HTMLElement|null} el */
async function showCount(family, el) {
  if (!el) return;
  try {
    /** @type {{families: Array<{family: string, kept: number, unanswered: number}>}} */
    const found = await api("GET", "/me/drills");
    const row = found.families.find((f) => f.family === family);
    el.textContent = String(row ? row.kept : 0);
  } catch {
    el.textContent = "";
  }
}

/**
 * The drills screen of a family (the first family when none is named); `mine`: the registered
 * player's own puzzles.
 * @param {HTMLElement} root @param {string|undefined} wanted @param {boolean} [wantMine]
 * @param {User|null} [user]
 */
export async function drillsScreen(root, wanted, wantMine = false, user = null) {
  const current = screenToken();
  const family = wanted && familyIds().includes(wanted) ? wanted : familyIds()[0] || "";
  const registered = !!user && !user.guest;
  const mine = wantMine && registered;
  /** @type {Puzzle|null} */
  let puzzle = null;
  /** @type {Answer|null} */
  let done = null;
  let busy = false;
  const scoreEl = h("p.dr-score", { "aria-live": "polite" }, scoreText());
  const body = h("div.dr-body", null, h("div.spinner"));
  root.replaceChildren(
    h("div.drills#drills", null,
      h("section.panel.dr-head", null, h("h2", null, t("dr_title")), wantMine && !registered ? guestNoteEl() : null, h("p.muted", null, t(mine ? "dr_mine_intro" : "dr_intro")), pickerEl(family, mine, registered), scoreEl),
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
    const q = `family=${encodeURIComponent(family)}${after ? `&after=${encodeURIComponent(after)}` : ""}${mine ? "&mine=1" : ""}`;
    try {
      puzzle = await api("GET", `/drills/next?${q}`);
    } catch (e) {
      if (!current()) return;
      const none = mine && e instanceof ApiError && e.code === "no-drills";
      body.replaceChildren(none ? emptyEl(family) : h("p.muted.dr-none", null, failure(e)));
      return;
    }
    done = null;
    draw();
  };
  if (registered) showCount(family, root.querySelector(".dr-own-count"));
  await load(null);
}

/** No puzzle of his own yet: how he gets some. @param {string} family @returns {HTMLElement} */
function emptyEl(family) {
  return h(
    "section.panel.dr-empty",
    null,
    h("h3", null, t("dr_mine_none")),
    h("p", null, t("dr_mine_how")),
    h("p.dr-actions", null, h("a.button.primary", { href: "#/" }, t("dr_play")), " ", h("a.button", { href: `#/drills/${family}` }, t("dr_corpus"))),
  );
}
