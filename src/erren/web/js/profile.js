// A player's own page (#/profile): his figures per family, his beans over time (an SVG chart
// drawn here from the ledger), his review profile (coachprofile.js), the leaderboards of each family by rating and by beans, the
// relief grant and its rules, and his games with filters, each linked to its replay.

import { api } from "./api.js";
import { h } from "./dom.js";
import { lineChart, svgEl } from "./chart.js";
import { amount, change, getLang, playerName, t } from "./i18n.js";
import { familyIds, familyName } from "./families.js";
import { reliefEl } from "./notices.js";
import { screenToken } from "./route.js";
import { rankBoardEl, ranksEl } from "./ranks.js";
import { coachEl } from "./coachprofile.js";

/** @typedef {{mu: number, sigma: number, ordinal: number, hands: number, provisional: boolean}} RatingOut */
/** @typedef {{family: string, hands: number, wins: number, self_drawn: number, dealt_in: number, losses: number, draws: number, win_rate: number|null, self_drawn_rate: number|null, deal_in_rate: number|null, average_fan: number|null, beans: number, biggest: {game: number, fan: number, points: number}|null, rating: RatingOut|null}} FamilyStatsOut */
/** @typedef {{below: number, top_up: number, available: boolean, claimed_today: boolean}} ReliefRulesOut */
/** @typedef {{user: import("./api.js").User, balance: number, relief: ReliefRulesOut, families: FamilyStatsOut[], provisional_hands: number, ranks?: import("./ranks.js").RankOut[]}} ProfileOut */
/** @typedef {{id: number, at: string, amount: number, balance: number, reason: string, key: string|null}} BeanPointOut */
/** @typedef {{low: number|null, high: number|null}} BeanBandOut */
/** @typedef {{rank: number, user_id: number, name: string, hands: number, beans?: BeanBandOut|null, rating?: RatingOut|null}} LeaderOut */
/** @typedef {{family: string, by: "beans"|"rating", leaders: LeaderOut[], provisional_hands: number}} LeaderboardOut */
/** @typedef {import("./api.js").GameOut & {result?: "win"|"loss"|"draw"|null, beans?: number|null}} HistoryGame */

/** 0.4 → "40.0%", null → "—". @param {number|null} x @returns {string} */
function pct(x) {
  return x === null ? "—" : `${(x * 100).toFixed(1)}%`;
}

/** A rating as shown: provisional for its first hands (erren.server.rating.PROVISIONAL_HANDS),
 * never a newcomer's raw μ − 3σ; then the estimate, with a real minus sign.
 * @param {RatingOut} r @param {number} needed @returns {string} */
export function ratingText(r, needed) {
  if (r.provisional) return t("pf_provisional", r.hands, needed);
  const x = Number(r.ordinal.toFixed(1));
  return x < 0 ? `\u2212${(-x).toFixed(1)}` : x.toFixed(1);
}

/** @param {string} iso @returns {string} */
function when(iso) {
  return new Date(iso).toLocaleString(getLang() === "zh" ? "zh-CN" : "en-GB");
}

/** The figures of every family played, one row each. @param {FamilyStatsOut[]} families
 * @param {number} needed rated hands before a rating is a number */
function statsEl(families, needed) {
  if (!families.length) return h("p.muted#pf-no-stats", null, t("pf_no_hands"));
  const heads = ["pf_family", "pf_hands", "pf_win_rate", "pf_self_drawn_rate", "pf_deal_in_rate", "pf_average_fan", "pf_beans", "pf_rating", "pf_biggest"];
  const rows = families.map((f) =>
    h(
      "tr.pf-family",
      { "data-family": f.family },
      h("th", { scope: "row" }, familyName(f.family)),
      h("td.pf-hands", null, amount(f.hands)),
      h("td.pf-win-rate", { title: `${f.wins}/${f.hands}` }, pct(f.win_rate)),
      h("td.pf-self-drawn-rate", { title: `${f.self_drawn}/${f.wins}` }, pct(f.self_drawn_rate)),
      h("td.pf-deal-in-rate", { title: `${f.dealt_in}/${f.hands}` }, pct(f.deal_in_rate)),
      h("td.pf-average-fan", null, f.average_fan === null ? "—" : f.average_fan.toFixed(1)),
      h(`td.pf-beans.${f.beans >= 0 ? "plus" : "minus"}`, null, change(f.beans)),
      h("td.pf-rating", { title: f.rating ? `μ ${f.rating.mu.toFixed(2)} · σ ${f.rating.sigma.toFixed(2)} · ${t("pf_rated_hands", f.rating.hands)}` : "" }, f.rating ? ratingText(f.rating, needed) : "—"),
      h("td.pf-biggest", null, f.biggest ? h("a.pf-replay", { href: `#/replay/${f.biggest.game}` }, t("pf_fan", f.biggest.fan)) : "—"),
    ),
  );
  return h(
    "div.pf-scroll",
    null,
    h("table.pf-stats#pf-stats", null, h("thead", null, h("tr", null, ...heads.map((k) => h("th", { scope: "col" }, t(k))))), h("tbody", null, ...rows)),
    h("p.muted.pf-note", null, t("pf_stats_note", needed)),
  );
}

/**
 * The balance after each ledger row, as a line over the rows in order (an SVG of our own): the
 * vertical axis spans the lowest to the highest balance shown, the horizontal one the rows.
 * @param {BeanPointOut[]} points oldest first @returns {HTMLElement}
 */
export function beanChart(points) {
  if (!points.length) return h("p.muted", null, t("pf_no_beans"));
  const values = points.map((p) => p.balance);
  let low = Math.min(...values), high = Math.max(...values);
  if (low === high) {
    low = Math.max(0, low - 1);
    high += 1;
  }
  const day = (/** @type {string} */ iso) => new Date(iso).toLocaleDateString(getLang() === "zh" ? "zh-CN" : "en-GB");
  const { svg, x, y } = lineChart(values, {
    box: { width: 640, height: 200, pad: 10, left: 64, bottom: 22 },
    low,
    high,
    label: amount,
    first: day(points[0].at),
    last: points.length > 1 ? day(points[points.length - 1].at) : null,
    attrs: { class: "pf-chart", "aria-label": t("pf_chart_label", amount(points[0].balance), amount(points[points.length - 1].balance)) },
  });
  svg.id = "pf-chart";
  points.forEach((p, i) => {
    const dot = svgEl("circle", { cx: x(i).toFixed(1), cy: y(p.balance).toFixed(1), r: 3, class: p.amount >= 0 ? "pf-dot plus" : "pf-dot minus" });
    dot.append(svgEl("title", {}, `${when(p.at)} · ${change(p.amount)} → ${amount(p.balance)} · ${p.reason}`));
    svg.append(dot);
  });
  return h("div.pf-chart-box", null, svg);
}

/** A net of beans shown as its band ("+1,000 ~ +5,000", "≥ +1,000,000"): the leaderboard never
 * shows a player's exact figure, which would give his balance away. @param {BeanBandOut} b
 * @returns {string} */
export function bandText(b) {
  if (b.high === null) return `≥ ${change(b.low || 0)}`;
  if (b.low === null) return `≤ ${change(b.high)}`;
  return `${change(b.low)} ~ ${change(b.high)}`;
}

/** The leaderboards: a family and an order to choose, the table, and what the chosen order
 * means. @param {number} me @param {number} needed rated hands before a rating is a number */
function leaderboardEl(me, needed) {
  const families = familyIds();
  let family = localStorage.getItem("erren.family") || families[0];
  if (!families.includes(family)) family = families[0];
  /** @type {"rating"|"beans"} */
  let by = "rating";
  const body = h("div.pf-board-body");
  const controls = h("div.row.pf-board-controls");
  const note = h("p.muted.pf-note#pf-board-note");
  const load = async () => {
    note.textContent = by === "rating" ? t("pf_board_note_rating", needed) : t("pf_board_note");
    controls.replaceChildren(
      ...families.map((f) => h(`button.fam-pick${f === family ? ".on" : ""}`, { type: "button", "aria-pressed": f === family ? "true" : "false", "data-family": f, onclick: () => { family = f; load(); } }, familyName(f))),
      h("span.spacer"),
      ...(/** @type {const} */ (["rating", "beans"])).map((o) => h(`button.by-pick${o === by ? ".on" : ""}#pf-by-${o}`, { type: "button", "aria-pressed": o === by ? "true" : "false", onclick: () => { by = o; load(); } }, t(`pf_by_${o}`))),
    );
    body.replaceChildren(h("div.spinner"));
    /** @type {LeaderboardOut} */
    const board = await api("GET", `/leaderboard/${encodeURIComponent(family)}?by=${by}&limit=20`);
    if (!board.leaders.length) {
      body.replaceChildren(h("p.muted", null, t(by === "rating" ? "pf_board_empty_rating" : "pf_board_empty_beans")));
      return;
    }
    body.replaceChildren(
      h(
        "table.pf-board#pf-board",
        { "data-by": by, "data-family": family },
        h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("pf_player")), h("th", null, t(by === "rating" ? "pf_rating" : "pf_beans")), h("th", null, t("pf_hands")))),
        h(
          "tbody",
          null,
          ...board.leaders.map((r) =>
            h(
              `tr${r.user_id === me ? ".me" : ""}`,
              null,
              h("td", null, String(r.rank)),
              h("td.pf-name", { translate: "no" }, r.name),
              h("td.pf-score", null, by === "rating" && r.rating ? ratingText(r.rating, needed) : r.beans ? bandText(r.beans) : "—"),
              h("td", null, amount(r.hands)),
            ),
          ),
        ),
      ),
    );
  };
  load().catch((e) => body.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e)))));
  return h("section.panel.pf-leaderboard", null, h("h2", null, t("pf_leaderboard")), controls, note, body);
}

/** The games with filters (family, room, opponent, result), each linked to its replay. */
function historyEl() {
  /** @param {string} id @param {[string, string][]} options @returns {HTMLSelectElement} */
  const select = (id, options) => /** @type {HTMLSelectElement} */ (h(`select#${id}`, { "aria-label": t(id.replace("pf-f-", "pf_f_")) }, ...options.map(([v, label]) => h("option", { value: v }, label))));
  const family = select("pf-f-family", [["", t("pf_all")], ...familyIds().map((f) => /** @type {[string, string]} */ ([f, familyName(f)]))]);
  const room = select("pf-f-room", [["", t("pf_all")], ["computer", t("pf_room_computer")], ["private", t("pf_room_private")], ...["novice", "normal", "junior", "intermediate", "senior"].flatMap((tier) => familyIds().map((f) => /** @type {[string, string]} */ ([`${f}/${tier}`, `${familyName(f)} · ${t(`pf_tier_${tier}`)}`])))]);
  const result = select("pf-f-result", [["", t("pf_all")], ["win", t("pf_win")], ["loss", t("pf_loss")], ["draw", t("pf_draw")]]);
  const opponent = /** @type {HTMLInputElement} */ (h("input#pf-f-opponent", { placeholder: t("pf_f_opponent"), "aria-label": t("pf_f_opponent"), maxlength: 40 }));
  const list = h("div.pf-games");
  const load = async () => {
    const q = new URLSearchParams({ limit: "50" });
    if (family.value) q.set("family", family.value);
    if (room.value) q.set("room", room.value);
    if (result.value) q.set("result", result.value);
    if (opponent.value.trim()) q.set("opponent", opponent.value.trim());
    list.replaceChildren(h("div.spinner"));
    /** @type {HistoryGame[]} */
    const games = await api("GET", `/games?${q}`);
    if (!games.length) {
      const filtered = [family, room, result].some((el) => el.value) || opponent.value.trim() !== "";
      list.replaceChildren(
        filtered
          ? h("p.muted#pf-no-games", null, t("pf_no_match"), " ", h("button.ghost#pf-clear", { type: "button", onclick: clear }, t("pf_clear_filter")))
          : h("p.muted#pf-no-games", null, t("r_none")),
      );
      return;
    }
    list.replaceChildren(
      h(
        "ul.games#pf-games",
        null,
        ...games.map((g) =>
          h(
            `li.game.pf-game${g.result ? `.pf-${g.result}` : ""}`,
            { "data-id": String(g.id) },
            h("div.game-head", null, h("b", null, `#${g.id} · ${familyName(g.ruleset)}`), h("span.when", null, when(g.finished_at || g.created_at))),
            h(
              "div.game-sum",
              null,
              g.players.map((p) => p || t("pf_computer")).join(" – "),
              g.result ? h(`span.pf-result.pf-${g.result}`, null, ` · ${t(`pf_${g.result}`)}`) : null,
              g.beans ? h(`span.${g.beans > 0 ? "plus" : "minus"}`, null, ` · ${change(g.beans)} ${t("beans")}`) : null,
            ),
            g.finished ? h("div.game-actions", null, h("a.button.r-open", { href: `#/replay/${g.id}` }, t("r_open"))) : null,
          ),
        ),
      ),
    );
  };
  const reload = () => { load().catch((e) => list.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e))))); };
  /** Every filter back to "all", and the games again. */
  function clear() {
    for (const el of [family, room, result]) el.value = "";
    opponent.value = "";
    reload();
  }
  for (const el of [family, room, result]) el.addEventListener("change", reload);
  const form = h("form.row.pf-filters", { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); reload(); } }, family, room, result, opponent, h("button#pf-filter", { type: "submit" }, t("pf_filter")));
  reload();
  return h("section.panel.pf-history", null, h("h2", null, t("r_history")), form, list);
}

/** The relief grant: its rules, and the button when it may be claimed now.
 * @param {ReliefRulesOut} relief @param {boolean} guest @param {() => void} again */
function reliefPanel(relief, guest, again) {
  if (relief.available) return reliefEl(() => window.setTimeout(again, 1200));
  const why = guest ? t("relief_guest") : relief.claimed_today ? t("relief_already_claimed") : t("pf_relief_not_now", amount(relief.below));
  return h("section.panel.pf-relief#pf-relief", null, h("h2", null, t("pf_relief")), h("p", null, t("pf_relief_rules", amount(relief.below), amount(relief.top_up))), h("p.muted", null, why));
}

/** The page. @param {HTMLElement} root */
export async function profileScreen(root) {
  const current = screenToken();
  root.replaceChildren(h("div.panel", null, h("div.spinner")));
  /** @type {[ProfileOut, BeanPointOut[]]} */
  const [page, points] = await Promise.all([api("GET", "/me/profile"), api("GET", "/me/beans/history?limit=200")]);
  if (!current()) return; // the player opened another screen meanwhile
  const again = () => { if (current()) profileScreen(root).catch(() => {}); };
  root.replaceChildren(
    h(
      "div.profile#profile",
      null,
      h("section.panel.pf-head", null, h("h2", null, playerName(page.user.name)), page.user.guest ? h("p.muted.pf-guest", null, t("account_needed")) : h("p.pf-balance", null, t("pf_balance"), " ", h("b#pf-balance", null, amount(page.balance)), ` ${t("beans")}`)),
      h("section.panel", null, h("h2", null, t("pf_stats")), statsEl(page.families, page.provisional_hands)),
      h("p.links.pf-drills", null, h("a#pf-link-drills", { href: "#/drills" }, t("dr_link"))),
      h("section.panel", null, h("h2", null, t("pf_bean_history")), beanChart(points)),
      page.user.guest ? null : coachEl(),
      ranksEl(page.ranks || [], page.user.guest),
      reliefPanel(page.relief, page.user.guest, again),
      leaderboardEl(page.user.id, page.provisional_hands),
      rankBoardEl(page.user.id),
      historyEl(),
    ),
  );
}
