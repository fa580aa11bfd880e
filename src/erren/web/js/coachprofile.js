// The profile page's "复盘统计 / Review profile" (issue #31 point 3): per family, from the
// reviews kept of the player's hands (GET /me/coach?family=F, docs/review.md "A player's error
// profile"): the match rate with 大师, the bad-move rate and the expected loss per hand over his
// last 50 and 200 reviewed hands, their trend (rolling windows of 20 hands, SVG charts drawn
// like the bean chart), the categories where he gives away most, and the coach rating in words.

import { api } from "./api.js";
import { h } from "./dom.js";
import { lineChart, svgEl } from "./chart.js";
import { amount, levelName, t, unitMany } from "./i18n.js";
import { familyIds, familyName } from "./families.js";
import { categoryText, familyUnit } from "./review.js";

/** @typedef {{hands: number, match_rate: number, bad_rate: number, loss_per_hand: number}} CoachFigures */
/** @typedef {{family: string, verdict: "level"|"between"|"too-few", hands: number, level: string|null, upper: string|null, position: number|null, distance: number|null, text: {zh: string, en: string}}} CoachRatingOut */
/** @typedef {{category: string, loss: number, loss_per_hand: number, decisions: number, bad: number}} CategoryLoss */
/** @typedef {{family: string, reviewed: number, windows: Array<CoachFigures & {window: number}>, rolling: number, trend: Array<CoachFigures & {game: number}>, categories: CategoryLoss[], rating: CoachRatingOut|null, min_hands: number}} CoachOut */

/** How many categories the list shows. */
const TOP = 3;

/** 0.4 → "40.0%". @param {number} x @returns {string} */
function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}

/** Expected points per hand, two decimals. @param {number} x @returns {string} */
function points(x) {
  return x.toFixed(2);
}

/** The coach rating in one sentence. @param {CoachRatingOut} r @param {number} min @returns {string} */
export function ratingSentence(r, min) {
  if (r.verdict === "too-few" || !r.level) return t("pf_cr_few", r.hands, min);
  if (r.verdict === "between" && r.upper) return t("pf_cr_between", levelName(r.level), levelName(r.upper));
  return t("pf_cr_level", levelName(r.level));
}

/**
 * One figure's rolling trend as a line (an SVG drawn like the bean chart, #pf-chart).
 * @param {Array<CoachFigures & {game: number}>} trend oldest first
 * @param {"match_rate"|"bad_rate"|"loss_per_hand"} key @param {(x: number) => string} show
 * @param {string} family @param {string} name the figure's name (its unit said) @returns {SVGSVGElement}
 */
function trendChart(trend, key, show, family, name) {
  const values = trend.map((p) => p[key]);
  let low = Math.min(...values), high = Math.max(...values);
  if (key !== "loss_per_hand") {
    low = Math.max(0, low);
    high = Math.min(1, high);
  }
  if (high - low < 1e-9) {
    low = Math.max(0, low - (key === "loss_per_hand" ? 1 : 0.05));
    high += key === "loss_per_hand" ? 1 : 0.05;
  }
  const { svg, x, y } = lineChart(values, {
    box: { width: 320, height: 130, pad: 8, left: 46, bottom: 18 },
    low,
    high,
    label: show,
    first: t("pf_cf_hand", 1),
    last: trend.length > 1 ? t("pf_cf_hand", trend.length) : null,
    attrs: { class: `pf-chart pf-coach-chart ${key}`, "data-family": family, "data-key": key, "aria-label": name },
  });
  const last = trend[trend.length - 1];
  const dot = svgEl("circle", { cx: x(trend.length - 1).toFixed(1), cy: y(last[key]).toFixed(1), r: 3, class: "pf-dot plus" });
  dot.append(svgEl("title", {}, `#${last.game} · ${show(last[key])} (${t("pf_cf_window", last.hands)})`));
  svg.append(dot);
  return svg;
}

/** One family's figures, trend, categories and rating, its losses in its own unit (番 in
 * guobiao-2p, 分 elsewhere: the room catalogue's; `null`: unknown, 分).
 * @param {CoachOut} c @param {import("./review.js").Unit|null} unit @returns {HTMLElement} */
function familyEl(c, unit) {
  const word = unit ? unitMany(unit) : t("rv_points");
  /** @param {string} key */
  const named = (key) => t(`pf_cf_${key}`, word);
  const rows = /** @type {const} */ ([["match_rate", pct], ["bad_rate", pct], ["loss_per_hand", points]]);
  const table = h(
    "table.pf-stats.pf-coach-figures",
    null,
    h("thead", null, h("tr", null, h("th", null, ""), ...c.windows.map((w) => h("th", { scope: "col" }, t("pf_cw_last", w.window), h("br"), h("span.muted.pf-cw-hands", null, t("pf_cf_window", w.hands)))))),
    h("tbody", null, ...rows.map(([key, show]) => h("tr", { "data-key": key }, h("th", { scope: "row" }, named(key)), ...c.windows.map((w) => h(`td.pf-cw-${w.window}`, null, w.hands ? show(w[key]) : "—"))))),
  );
  const charts = rows.map(([key, show]) => h("figure.pf-coach-trend", null, h("figcaption.muted", null, named(key)), trendChart(c.trend, key, show, c.family, named(key))));
  const top = c.categories.filter((x) => x.loss > 0).slice(0, TOP);
  const categories = top.length
    ? h("ol.pf-coach-cats", null, ...top.map((x) => h("li", { "data-category": x.category }, h("b", null, categoryText(x.category)), ` ${t("pf_cc_loss", points(x.loss_per_hand), amount(x.decisions), word)}`)))
    : h("p.muted", null, t("pf_cc_none"));
  return h(
    "div.pf-coach-family",
    { "data-family": c.family },
    h("h3", null, familyName(c.family), h("span.muted.pf-coach-count", null, ` · ${t("pf_coach_reviewed", amount(c.reviewed))}`)),
    c.rating ? h("p.pf-coach-rating", { "data-verdict": c.rating.verdict }, ratingSentence(c.rating, c.min_hands)) : null,
    h("div.pf-scroll", null, table),
    h("p.muted.pf-note", null, t("pf_coach_trend", c.rolling)),
    h("div.pf-coach-charts", null, ...charts),
    h("h4", null, t("pf_cc_title")),
    categories,
  );
}

/** The section: every family with a reviewed hand (none: a note). @returns {HTMLElement} */
export function coachEl() {
  const body = h("div.pf-coach-body", null, h("div.spinner"));
  const load = async () => {
    /** @type {CoachOut[]} */
    const all = await Promise.all(familyIds().map((f) => api("GET", `/me/coach?family=${encodeURIComponent(f)}`)));
    const shown = all.filter((c) => c.reviewed > 0);
    const units = await Promise.all(shown.map((c) => familyUnit(c.family)));
    body.replaceChildren(...(shown.length ? shown.map((c, i) => familyEl(c, units[i])) : [h("p.muted#pf-coach-none", null, t("pf_coach_none"))]));
  };
  load().catch((e) => body.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e)))));
  return h("section.panel.pf-coach#pf-coach", null, h("h2", null, t("pf_coach")), h("p.muted.pf-note", null, t("pf_coach_note")), body);
}
