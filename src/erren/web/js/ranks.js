// Ranks and seasons (段位, erren.server.ranks): the rank badge (an SVG of our own), a player's
// ranks per family with the points toward the next step and his rank history (the profile),
// each family's leaderboard by rank with a season picker, and a bean-room hand's rank move on
// its settlement card. The server names every step in both languages (`zh`, `en`).

import { api } from "./api.js";
import { h } from "./dom.js";
import { amount, change, getLang, t } from "./i18n.js";
import { familyIds, familyName } from "./families.js";

/** @typedef {{step: number, rank: string, level: number, zh: string, en: string, points: number, threshold: number|null}} StandingOut */
/** @typedef {{family: string, season: number, hands: number, standing: StandingOut}} RankOut */
/** @typedef {{change: number, before: StandingOut, after: StandingOut, promoted: boolean, demoted: boolean}} RankMove */
/** @typedef {RankMove & {game: number, family: string, season: number, at: string}} RankMoveOut */
/** @typedef {{number: number, start: string, end: string}} SeasonOut */
/** @typedef {{rank: number, user_id: number, name: string, hands: number, standing: StandingOut}} RankLeaderOut */

/** Each rank's colours (fill, rim) and the character on its badge. */
const LOOK = /** @type {Record<string, [string, string, string]>} */ ({
  newcomer: ["#9fb3bf", "#6f8794", "新"],
  adept: ["#4f9d69", "#2f6b44", "士"],
  expert: ["#3d7cc4", "#24508a", "杰"],
  master: ["#8a5cc2", "#5b3a88", "豪"],
  saint: ["#d9902b", "#9a6213", "圣"],
  celestial: ["#c23b3b", "#e9b949", "神"],
});

/** A step's name in the player's language. @param {StandingOut} s @returns {string} */
export function stepName(s) {
  return getLang() === "zh" ? s.zh : s.en;
}

/**
 * The rank badge: a shield in the rank's colours with its character and one pip per level.
 * @param {StandingOut} s @param {number} [size] pixels @returns {SVGSVGElement}
 */
export function rankBadge(s, size = 44) {
  const NS = "http://www.w3.org/2000/svg";
  /** @param {string} tag @param {Record<string, string|number>} attrs @param {string} [text] */
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const [fill, rim, mark] = LOOK[s.rank] || LOOK.newcomer;
  const svg = /** @type {SVGSVGElement} */ (el("svg", { viewBox: "0 0 40 44", width: size, height: Math.round(size * 1.1), class: `rk-badge rk-${s.rank}`, role: "img", "aria-label": stepName(s) }));
  svg.append(el("path", { d: "M20 2 L37 8 V22 C37 32 29 39 20 42 C11 39 3 32 3 22 V8 Z", fill, stroke: rim, "stroke-width": 2.5 }));
  svg.append(el("text", { x: 20, y: 25, "text-anchor": "middle", class: "rk-mark" }, mark));
  if (s.threshold !== null) {
    for (let i = 0; i < 3; i++) svg.append(el("circle", { cx: 13 + i * 7, cy: 33, r: 2.3, class: i < s.level ? "rk-pip on" : "rk-pip" }));
  }
  return svg;
}

/** The points toward the next step, as a bar (the top rank: its points only).
 * @param {StandingOut} s @returns {HTMLElement} */
export function pointsBar(s) {
  if (s.threshold === null) return h("div.rk-points", null, t("rk_points_top", amount(s.points)));
  const share = Math.max(0, Math.min(1, s.points / s.threshold));
  const fill = h("span.rk-fill");
  fill.style.width = `${(share * 100).toFixed(1)}%`; // the CSSOM: the page's CSP refuses style attributes
  return h(
    "div.rk-points",
    null,
    h("div.rk-bar", { role: "progressbar", "aria-valuemin": 0, "aria-valuemax": s.threshold, "aria-valuenow": s.points, "aria-label": t("rk_points", amount(s.points), amount(s.threshold)) }, fill),
    h("span.rk-figure", null, t("rk_points", amount(s.points), amount(s.threshold))),
  );
}

/** One move in words: "+30 PT", and a promotion or a demotion. @param {RankMove} m @returns {HTMLElement[]} */
function moveParts(m) {
  const sign = m.change > 0 ? "plus" : m.change < 0 ? "minus" : "zero";
  const parts = [h(`b.rk-change.${sign}`, null, `${change(m.change)} ${t("rk_pt")}`)];
  if (m.promoted) parts.push(h("span.rk-up", null, t("rk_promoted")));
  else if (m.demoted) parts.push(h("span.rk-down", null, t("rk_demoted")));
  else if (m.change < 0 && m.before.points + m.change < 0) parts.push(h("span.rk-kept", null, t("rk_protected"))); // stopped at 0
  return parts;
}

/**
 * The rank move of a bean-room hand for the player, on its settlement card (`settlement.ranks`:
 * one entry per seat, null where nothing moved); null when his rank did not move.
 * @param {unknown} ranks @param {number} me @returns {HTMLElement|null}
 */
export function rankMoveEl(ranks, me) {
  const m = Array.isArray(ranks) ? /** @type {RankMove|null} */ (ranks[me]) : null;
  if (!m) return null;
  return h("div.rk-move#rk-move", { role: "status" }, rankBadge(m.after, 30), h("span.rk-step", null, stepName(m.after)), ...moveParts(m), pointsBar(m.after));
}

/**
 * The line a friend's private bean table shows in place of a rank move (`settlement.ranked`
 * false at a table with a `stake`: its hands move beans, never ranks); null anywhere else.
 * @param {{ranked?: unknown, stake?: unknown}} end @returns {HTMLElement|null}
 */
export function unrankedEl(end) {
  if (end.ranked !== false || end.stake === null || end.stake === undefined) return null;
  return h("p.rk-unranked#rk-unranked", { role: "status" }, t("rk_unranked"));
}

/**
 * A season picker: every season so far, the current one chosen; ``onPick`` is told the chosen
 * season's number (at once, then at each change).
 * @param {string} id @param {(season: number) => void} onPick @returns {HTMLSelectElement}
 */
function seasonPicker(id, onPick) {
  const picker = /** @type {HTMLSelectElement} */ (h(`select#${id}`, { "aria-label": t("rk_season_pick") }));
  picker.addEventListener("change", () => onPick(Number(picker.value)));
  api("GET", "/seasons").then((/** @type {{current: SeasonOut, seasons: SeasonOut[]}} */ all) => {
    const day = (/** @type {string} */ iso) => new Date(iso).toLocaleDateString(getLang() === "zh" ? "zh-CN" : "en-GB", { timeZone: "UTC", month: getLang() === "zh" ? "numeric" : "short", day: "numeric" });
    for (const s of all.seasons) picker.append(h("option", { value: String(s.number) }, t(s.number === all.current.number ? "rk_season_now" : "rk_season", s.number, day(s.start), day(new Date(Date.parse(s.end) - 1).toISOString()))));
    picker.value = String(all.current.number);
    onPick(all.current.number);
  }).catch(() => onPick(0));
  return picker;
}

/** The player's rank moves of a season he picks (the current one first), newest first.
 * @returns {HTMLElement} */
function historyEl() {
  const box = h("div.rk-history#rk-history", null, h("div.spinner"));
  /** @param {number} season the season's number (0: the current one) */
  const show = (season) => {
    api("GET", `/me/ranks/history?limit=20${season ? `&season=${season}` : ""}`)
      .then((/** @type {{season: SeasonOut, moves: RankMoveOut[]}} */ page) => {
        box.replaceChildren(!page.moves.length
          ? h("p.muted", null, t("rk_no_history"))
          : h("ul.rk-moves", null, ...page.moves.map((m) => h("li.rk-line", { "data-game": String(m.game) }, h("span.rk-fam", null, familyName(m.family)), " ", ...moveParts(m), " ", h("span.muted", null, `${stepName(m.before)} ${amount(m.before.points)} → ${stepName(m.after)} ${amount(m.after.points)}`), " ", h("a.pf-replay", { href: `#/replay/${m.game}` }, `#${m.game}`)))));
      })
      .catch((e) => box.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e)))));
  };
  return h("div", null, h("div.row.rk-history-head", null, h("h3", null, t("rk_history_title")), h("span.spacer"), seasonPicker("rk-history-season", show)), box);
}

/**
 * The profile's ranks: per family the badge, the step, the points toward the next step, then
 * the season's moves. Guests have no rank.
 * @param {RankOut[]} ranks @param {boolean} guest @returns {HTMLElement}
 */
export function ranksEl(ranks, guest) {
  const head = h("h2", null, t("rk_title"));
  if (guest) return h("section.panel.rk-panel#rk-panel", null, head, h("p.muted", null, t("rk_guest")));
  const cards = ranks.length
    ? h("div.rk-cards", null, ...ranks.map((r) => h("div.rk-card", { "data-family": r.family, "data-step": String(r.standing.step) }, rankBadge(r.standing), h("div.rk-text", null, h("div.rk-fam", null, familyName(r.family)), h("div.rk-step", null, stepName(r.standing)), pointsBar(r.standing), r.hands ? null : h("div.muted.rk-carried", null, t("rk_carried"))))))
    : h("p.muted#rk-none", null, t("rk_none"));
  return h("section.panel.rk-panel#rk-panel", null, head, cards, h("p.muted.pf-note", null, t("rk_note")), historyEl());
}

/** Each family's leaderboard by rank, with a season picker (past seasons as they ended).
 * @param {number} me @returns {HTMLElement} */
export function rankBoardEl(me) {
  const families = familyIds();
  let family = localStorage.getItem("erren.family") || families[0];
  if (!families.includes(family)) family = families[0];
  /** @type {number|null} */
  let season = null;
  const controls = h("div.row.pf-board-controls");
  const body = h("div.pf-board-body");
  const picker = seasonPicker("rk-season", (n) => { season = n || null; reload(); });
  const load = async () => {
    controls.replaceChildren(...families.map((f) => h(`button.fam-pick${f === family ? ".on" : ""}`, { type: "button", "aria-pressed": f === family ? "true" : "false", "data-family": f, onclick: () => { family = f; reload(); } }, familyName(f))), h("span.spacer"), picker);
    body.replaceChildren(h("div.spinner"));
    /** @type {{family: string, season: SeasonOut, leaders: RankLeaderOut[]}} */
    const board = await api("GET", `/leaderboard/${encodeURIComponent(family)}/ranks?limit=20${season ? `&season=${season}` : ""}`);
    if (!board.leaders.length) {
      body.replaceChildren(h("p.muted#rk-board-empty", null, t("rk_board_empty")));
      return;
    }
    body.replaceChildren(
      h(
        "div.pf-scroll",
        null,
        h(
        "table.pf-board.rk-board#rk-board",
        { "data-family": family, "data-season": String(board.season.number) },
        h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("pf_player")), h("th", null, t("rk_rank")), h("th", null, t("rk_pt")), h("th", null, t("pf_hands")))),
        h("tbody", null, ...board.leaders.map((r) => h(`tr${r.user_id === me ? ".me" : ""}`, null, h("td", null, String(r.rank)), h("td.pf-name", { translate: "no" }, r.name), h("td.rk-cell", null, rankBadge(r.standing, 22), " ", stepName(r.standing)), h("td", null, amount(r.standing.points)), h("td", null, amount(r.hands))))),
        ),
      ),
    );
  };
  const reload = () => { load().catch((e) => body.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e))))); };
  return h("section.panel.rk-leaderboard#rk-leaderboard", null, h("h2", null, t("rk_board")), controls, h("p.muted.pf-note", null, t("rk_board_note")), body);
}
