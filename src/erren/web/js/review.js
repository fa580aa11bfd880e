// The review of a hand by 大师 (the server's `review` message and GET /games/ID/review: one hand
// of `erren review --json`, schema erren-review/1, docs/review.md), at the settlement and in the
// replay: a summary line (match rate, bad moves, expected loss in the family's own unit), the
// decisions where the player's move and 大师's differ (a toggle shows them all), each with both
// moves drawn as tiles and the loss coloured (none / small / bad above the family's threshold);
// in the replay each decision is marked on the timeline and a click jumps to it. The link
// #/replay/ID?review=SEAT opens the replay with that review, for anyone once the hand is over.
// Beside it, the seat's hindsight ("with the tiles known", erren.review.hindsight, sent with the
// review only after the hand ended): the points he made, the best line's with the whole wall
// and the opponent's play known, and that line from where it leaves the record, said plainly
// to be hindsight and never advice.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { getLang, known, t, unitWord } from "./i18n.js";
import { familyVerb } from "./families.js";
import { rooms } from "./notices.js";
import { parseTiles } from "./notation.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./i18n.js").Lang} Lang */
/** A move as the wire writes it and the tiles it names. @typedef {{text: string, tiles: string[]}} ReviewMove */
/**
 * One decision of the reviewed seat: `step` its index in the record's actions, what it was
 * about, both moves, their expected points (null where they agree), the loss and `bad`.
 * @typedef {{hand: number, step: number, seat: number, category: string, player: ReviewMove, bot: ReviewMove, match: boolean, ev_player: number|null, ev_bot: number|null, loss: number, stderr: number|null, bad: boolean, reasons?: Record<string, any>}} ReviewDecision
 */
/** @typedef {{decisions: number, matches: number, match_rate: number, bad: number, bad_rate: number, loss: number, costliest: Array<{hand: number, step: number}>}} ReviewSummary */
/** One hand's review. @typedef {{hand: number, ruleset: string, seat: number, threshold: number, result: string|null, summary: ReviewSummary, decisions: ReviewDecision[]}} HandReview */
/**
 * The seat's best line with every tile known (erren.review.hindsight's `Hindsight.to_dict()`):
 * `actual` and `best` his points in the family's unit, `moves` his moves of the line
 * ("0:discard:5m"), `departs_at` the first of them off the record (null: the record was best),
 * `actions` the line's whole action list, `complete` whether the search was exhaustive.
 * @typedef {{seat: number, unit: string, actual: number, best: number, gain: number, moves: string[], departs_at: number|null, departs_action: number|null, departures: number, ending: string, result: string, actions: string[], complete: boolean, steps: number, lines: number}} Hindsight
 */
/** The server's answer. @typedef {{type: "review", game: number, seat: number, review: HandReview, hindsight: Hindsight|null}} ReviewMessage */
/** A family's unit of points (`en_many`: its English name for a count other than one).
 * @typedef {{zh: string, en: string, en_many?: string}} Unit */

/** The categories a decision may have (erren.review.model.Category). */
export const CATEGORIES = ["efficiency", "value", "defence", "claim", "ting", "win", "family"];

/** The review of `seat` in finished game `id` (GET /games/ID/review). @param {number} id @param {number} seat @returns {Promise<ReviewMessage>} */
export function fetchReview(id, seat) {
  return api("GET", `/games/${id}/review?seat=${seat}`);
}

/** The unit a family counts its points in (the room catalogue's), or null if unknown.
 * @param {string} family @returns {Promise<Unit|null>} */
export async function familyUnit(family) {
  try {
    const found = (await rooms()).find((r) => r.family === family);
    return found ? found.unit : null;
  } catch {
    return null;
  }
}

/** How a decision's loss is coloured: `none` (no loss), `small`, or `bad` (above the family's
 * threshold). @param {ReviewDecision} d @returns {"none"|"small"|"bad"} */
export function lossKind(d) {
  if (d.bad) return "bad";
  return d.loss > 0 ? "small" : "none";
}

/** A number of points with one decimal and the unit ("3.4 番", "3.4 fan"). @param {number} n @param {Unit|null} unit @returns {string} */
function points(n, unit) {
  const shown = n.toFixed(1);
  return `${shown} ${unit ? unitWord(unit, shown) : t("rv_points")}`;
}

/** A move's verb in words: 打, 报听打, 碰, 吃, 杠, 胡, 过, or a family's own. @param {string} verb @returns {string} */
function verbWord(verb) {
  if (verb === "discard") return t("rv_throw");
  if (verb === "ting") return t("rv_ting");
  if (["minggang", "angang", "jiagang"].includes(verb)) return t("a_gang");
  if (known(`a_${verb}`)) return t(`a_${verb}`);
  const own = familyVerb(verb);
  return own && known(own.label) ? t(own.label) : verb;
}

/** A move drawn: its verb and its tiles. @param {ReviewMove} move @param {Lang} lang @param {string} cls @returns {HTMLElement} */
function moveEl(move, lang, cls) {
  const verb = move.text.split(":")[0];
  return h(`span.rv-move.${cls}`, { "data-move": move.text }, h("span.rv-verb", null, verbWord(verb)), ...move.tiles.map((tile) => tileEl(tile, { size: "s", lang })));
}

/** A decision's category in words. @param {string} category @returns {string} */
export function categoryText(category) {
  return t(`rv_c_${CATEGORIES.includes(category) ? category : "family"}`);
}

/**
 * One decision: its category, both moves drawn, and the loss coloured.
 * @param {ReviewDecision} d @param {Unit|null} unit @param {Lang} lang @param {((step: number) => void)|null} onJump
 * @returns {HTMLElement}
 */
function decisionEl(d, unit, lang, onJump) {
  const kind = lossKind(d);
  const loss = d.match ? t("rv_same") : kind === "none" ? t("rv_no_loss") : `−${points(d.loss, unit)}`;
  const row = h(
    onJump ? "button.rv-row" : "div.rv-row",
    { type: onJump ? "button" : null, "data-step": d.step, "data-loss": kind, "data-match": d.match ? "1" : "0", title: onJump ? t("rv_jump") : null },
    h("span.rv-cat", null, categoryText(d.category)),
    h("span.rv-line", null, h("span.rv-who", null, t("rv_you")), moveEl(d.player, lang, "rv-player")),
    h("span.rv-line", null, h("span.rv-who", null, t("rv_master")), moveEl(d.bot, lang, "rv-bot")),
    h(`span.rv-loss.rv-loss-${kind}`, null, loss),
  );
  if (onJump) row.addEventListener("click", () => onJump(d.step));
  return row;
}

/** "一致 75%（9/12）· 恶手 1 · 期望损失 3.4 番". @param {ReviewSummary} s @param {Unit|null} unit @returns {string} */
export function summaryText(s, unit) {
  return t("rv_sum", Math.round(s.match_rate * 100), s.matches, s.decisions, s.bad, points(s.loss, unit));
}

/** How many of the hindsight line's moves are drawn (then "…"). */
export const HINDSIGHT_MOVES = 4;

/** Whole points, signed, with the unit ("+40 番", "−18 fan"). @param {number} n @param {Unit|null} unit @returns {string} */
function signedPoints(n, unit) {
  const shown = `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`;
  return `${shown} ${unit ? unitWord(unit, shown) : t("rv_points")}`;
}

/**
 * The hindsight block: its title, that it is hindsight and not advice, the actual points and
 * the best line's, and the line from where it leaves the record (its first moves drawn as
 * tiles, the step it leaves at), or that nothing would have done better. With `onJump` (the
 * replay) the step is a button that jumps there.
 * @param {Hindsight} hs @param {Unit|null} unit @param {Lang} lang @param {((step: number) => void)|null} onJump
 * @returns {HTMLElement}
 */
export function hindsightEl(hs, unit, lang, onJump) {
  const box = h("section.rv-hindsight", { "aria-label": t("rv_hs_title"), "data-actual": hs.actual, "data-best": hs.best });
  box.append(
    h("h4", null, t("rv_hs_title")),
    h("p.rv-hs-note", null, t("rv_hs_note")),
    h("p.rv-hs-points", null, t("rv_hs_points", signedPoints(hs.actual, unit), signedPoints(hs.best, unit))),
  );
  if (hs.departs_at === null || hs.departs_action === null || hs.best <= hs.actual) {
    box.append(h("p.rv-hs-none", null, t("rv_hs_none")));
    return box;
  }
  const step = hs.departs_action;
  const frame = frameOfStep(hs.actions, step); // the line is the record's up to its departure
  const from = t("rv_hs_from", frame);
  const line = hs.moves.slice(hs.departs_at);
  const shown = line.slice(0, HINDSIGHT_MOVES).map((m) => {
    const text = /^\d+:/.test(m) ? m.slice(m.indexOf(":") + 1) : m;
    const colon = text.indexOf(":");
    return moveEl({ text, tiles: colon < 0 ? [] : parseTiles(text.slice(colon + 1)) }, lang, "rv-hs-move");
  });
  if (line.length > HINDSIGHT_MOVES) shown.push(h("span.rv-hs-more", null, "…"));
  const head = onJump
    ? h("button.ghost.rv-hs-from", { type: "button", "data-step": step, title: t("rv_jump"), onclick: () => onJump(step) }, from)
    : h("span.rv-hs-from", { "data-step": step }, from);
  box.append(h("div.rv-hs-line", null, head, ...shown));
  if (!hs.complete) box.append(h("p.rv-hs-cut", null, t("rv_hs_cut")));
  return box;
}

/**
 * The review panel: a heading, the summary line, the decisions that differ (a toggle shows
 * every decision), and a share button when `share` is given (the link to copy); the seat's
 * hindsight block after it when `hindsight` is given.
 * @param {HandReview} review
 * @param {{unit?: Unit|null, onJump?: ((step: number) => void)|null, share?: string|null, session?: string|null, hindsight?: Hindsight|null}} [opts]
 * @returns {HTMLElement}
 */
export function reviewPanel(review, opts = {}) {
  const box = reviewBox(review, opts);
  if (opts.hindsight) box.append(hindsightEl(opts.hindsight, opts.unit || null, getLang(), opts.onJump || null));
  return box;
}

/**
 * The review itself (without the hindsight).
 * @param {HandReview} review
 * @param {{unit?: Unit|null, onJump?: ((step: number) => void)|null, share?: string|null, session?: string|null}} opts
 * @returns {HTMLElement}
 */
function reviewBox(review, opts) {
  const lang = getLang();
  const unit = opts.unit || null;
  const onJump = opts.onJump || null;
  const box = h("section.rv-panel", { "aria-label": t("rv_title") });
  const head = h("div.rv-head", null, h("h3", null, t("rv_title")));
  if (opts.share) {
    const link = opts.share;
    head.append(h("button.ghost.rv-share", { type: "button", onclick: () => copyLink(link) }, t("rv_share")));
  }
  box.append(head);
  if (!review.decisions.length) {
    box.append(h("p.rv-sum", null, t("rv_nothing")));
    return box;
  }
  box.append(h("p.rv-sum", null, summaryText(review.summary, unit)));
  if (opts.session) box.append(h("p.rv-session", null, opts.session));
  const differ = review.decisions.filter((d) => !d.match);
  const list = h("div.rv-list");
  let all = false;
  const fill = () => {
    const shown = all ? review.decisions : differ;
    list.replaceChildren(...shown.map((d) => decisionEl(d, unit, lang, onJump)));
    if (!shown.length) list.append(h("p.rv-same-all", null, t("rv_all_same")));
    toggle.textContent = all ? t("rv_only_differ", differ.length) : t("rv_show_all", review.decisions.length);
    toggle.setAttribute("aria-pressed", all ? "true" : "false");
  };
  const toggle = h("button.ghost.rv-toggle", { type: "button", onclick: () => { all = !all; fill(); } });
  box.append(h("p.rv-differ", null, differ.length ? t("rv_differ", differ.length) : t("rv_all_same")), toggle, list);
  fill();
  return box;
}

/** The button that asks for the review at the settlement (then a wait). @param {boolean} asked @param {() => void} ask @returns {HTMLElement} */
export function reviewAsk(asked, ask) {
  return h("section.rv-panel", null, h("button.rv-ask", { type: "button", disabled: asked, onclick: ask }, asked ? t("rv_wait") : t("rv_ask")));
}

/** The shareable address of a hand's replay with one seat's review. @param {number} game @param {number} seat @returns {string} */
export function shareLink(game, seat) {
  return `${location.origin}/#/replay/${game}?review=${seat}`;
}

/** Copy `link` (a prompt to copy it by hand where the clipboard is refused). @param {string} link */
async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    toast(t("r_copied"));
  } catch {
    window.prompt(t("rv_share"), link);
  }
}

/**
 * The summary over several hands of one table session (the settlement's reviews asked there):
 * "本桌 3 手：一致 80%（24/30）· 恶手 2 · 期望损失 5.1 番", or null for fewer than two hands.
 * @param {HandReview[]} reviews @param {Unit|null} unit @returns {string|null}
 */
export function sessionText(reviews, unit) {
  if (reviews.length < 2) return null;
  const decisions = reviews.reduce((n, r) => n + r.summary.decisions, 0);
  const matches = reviews.reduce((n, r) => n + r.summary.matches, 0);
  const bad = reviews.reduce((n, r) => n + r.summary.bad, 0);
  const loss = reviews.reduce((n, r) => n + r.summary.loss, 0);
  const rate = decisions ? matches / decisions : 1;
  return t("rv_session", reviews.length, t("rv_sum", Math.round(rate * 100), matches, decisions, bad, points(loss, unit)));
}

/**
 * The replay's frame of a decision: the position the player decided from, i.e. the frame after
 * the moves before it. Frame 0 is the deal; each later frame is one move of a player or the
 * system, the chance actions (`c:...`) folded into the move before them.
 * @param {string[]} actions the record's actions @param {number} step @returns {number}
 */
export function frameOfStep(actions, step) {
  let frame = 0;
  for (let i = 0; i < step && i < actions.length; i += 1) if (!actions[i].startsWith("c:")) frame += 1;
  return frame;
}
