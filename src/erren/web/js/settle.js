// The settlement: the winning hand laid out, the fan / pattern / 水 list in Chinese and English
// with values (hover or tap a row to light up its tiles), points and beans, next hand or leave.

import { h, num } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { parseHand, sortTiles } from "./notation.js";
import { campaignStats, payoutEl } from "./campaign.js";
import { tileEl } from "./tiles.js";
import { rulesHref } from "./rules.js";

/** @type {Record<string, any>} */
let NAMES = {};

/** Load the names of xiamen's win types (served from the scoring tables). */
export async function loadNames() {
  try {
    const res = await fetch("/web/names.json");
    if (res.ok) NAMES = await res.json();
  } catch {
    /* the Chinese names alone still work */
  }
}

/**
 * @typedef {{tile: string, group: "hand"|"meld"|"win"|"flower", meld: string, mi: number}} Laid
 */

/**
 * One row of a family's score as the server sends it (``result.rows``).
 * @typedef {{zh: string, en: string, value: number, count: number, tiles: string[], melds: number[], id?: string}} ScoreRowJson
 */

/** @param {string} hand @returns {Laid[]} */
function layout(hand) {
  const p = parseHand(hand);
  /** @type {Laid[]} */
  const out = [];
  for (const tile of sortTiles(p.concealed)) out.push({ tile, group: "hand", meld: "", mi: -1 });
  p.melds.forEach((m, mi) => {
    for (const tile of m.tiles) out.push({ tile, group: "meld", meld: m.kind, mi });
  });
  if (p.win) out.push({ tile: p.win, group: "win", meld: "", mi: -1 });
  for (const tile of p.flowers) out.push({ tile, group: "flower", meld: "", mi: -1 });
  return out;
}

/**
 * The laid tiles of a fan from the server's ``fan_tiles`` (its groups: a declared meld by index,
 * concealed tiles by face, each laid tile used once).
 * @param {Array<{tiles: string[], meld: number|null}>} groups @param {Laid[]} laid
 * @returns {Set<number>}
 */
export function exactTiles(groups, laid) {
  /** @type {Set<number>} */
  const used = new Set();
  const order = ["hand", "win", "flower", "meld"];
  for (const g of groups) {
    if (g.meld !== null && g.meld !== undefined && laid.some((l) => l.group === "meld" && l.mi === g.meld)) {
      laid.forEach((l, i) => {
        if (l.group === "meld" && l.mi === g.meld) used.add(i);
      });
      continue;
    }
    for (const tile of g.tiles) {
      let found = -1;
      for (const group of order) {
        found = laid.findIndex((l, i) => !used.has(i) && l.group === group && l.tile === tile);
        if (found >= 0) break;
      }
      if (found >= 0) used.add(found);
    }
  }
  return used;
}

/**
 * @typedef {{end: any, me: number, family: string, names: string[], options: Record<string, any>,
 *   streak: number, gold: string|null, waiting: boolean, opponentReady: boolean, closed: boolean,
 *   campaign?: any,
 *   onNext: (() => void)|null, onLeave: (() => void)|null, onReplay: (() => void)|null,
 *   extra?: HTMLElement|null}} SettleOpts
 */

/** @param {SettleOpts} o @returns {HTMLElement} */
export function settlementEl(o) {
  const lang = getLang();
  const r = o.end.result || {};
  const box = h("div.settle", { role: "dialog", "aria-label": "settlement" });
  const card = h("div.settle-card");
  box.append(card);
  let title = t("s_draw");
  let cls = "draw";
  if (r.kind === "win") {
    title = r.winner === o.me ? t("s_win") : t("s_lose");
    cls = r.winner === o.me ? "won" : "lost";
  } else if (r.kind === "abort") {
    title = t("s_abort");
    cls = "lost";
  }
  card.append(h(`h2.settle-title.${cls}`, null, title));

  if (r.kind === "win" && r.hand) {
    const laid = layout(String(r.hand));
    const handBox = h("div.settle-hand");
    /** @type {HTMLElement[]} */
    const els = [];
    let prev = "";
    laid.forEach((l) => {
      const group = l.group === "meld" ? `meld${l.mi}` : l.group;
      if (prev && group !== prev) handBox.append(h("span.gap"));
      prev = group;
      const el = tileEl(l.tile, { size: "m", lang, cls: l.group === "win" ? "winning" : "" });
      els.push(el);
      handBox.append(el);
    });
    const how = String(r.how || "");
    const winType = winTypeText(o.family, how);
    card.append(h("div.settle-who", null, `${r.winner === o.me ? t("you") : o.names[r.winner] || t("opponent")} · ${t("s_type")}: ${winType}`));
    card.append(handBox);
    // the campaign: the computer's win is checked but no fan is counted or shown (R3.4)
    // Every family's score arrives as the same rows (erren.scoring.detail.FamilyScore): the name
    // in both languages, value, count and the tiles each row came from (``fan_tiles``).
    const rows = /** @type {ScoreRowJson[]} */ (o.campaign && r.winner !== o.me ? [] : r.rows || []);
    const unit = /** @type {{zh: string, en: string}|null} */ (r.unit || null);
    const list = h("table.fans");
    list.append(h("caption", null, unit && unit.en === "water" ? t("s_water") : t("s_fans"), h("span.hint", null, ` — ${t("s_hover")}`)));
    /** @type {Array<Array<{tiles: string[], meld: number|null}>>|null} */
    const exact = Array.isArray(r.fan_tiles) && r.fan_tiles.length === rows.length ? r.fan_tiles : null;
    rows.forEach((row, fi) => {
      // the Chinese screen shows the Chinese name only; the English one adds the Chinese term
      const [name, other] = lang === "zh" ? [row.zh, ""] : [row.en || row.zh, row.zh];
      const lit = exact ? exactTiles(exact[fi], laid) : new Set();
      const table = o.family === "guobiao-2p" && o.options && o.options.fan_table === "gb" ? "gb" : null;
      const nameEl = row.id ? h("a.rule-link", { href: rulesHref(o.family, row.id, table), title: t("rules_link") }, name) : name;
      const tr = h("tr.fan", { tabindex: 0 }, h("td.name", null, nameEl), h("td.alt", null, other), h("td.val", null, row.count > 1 ? `${row.value} × ${row.count}` : String(row.value)), h("td.sub", null, String(row.value * row.count)));
      const on = () => {
        for (const r2 of list.querySelectorAll("tr.fan.on")) r2.classList.remove("on");
        tr.classList.add("on");
        els.forEach((el, i) => el.classList.toggle("lit", lit.has(i)));
      };
      const off = () => {
        tr.classList.remove("on");
        els.forEach((el) => el.classList.remove("lit"));
      };
      tr.addEventListener("mouseenter", on);
      tr.addEventListener("mouseleave", off);
      tr.addEventListener("focus", on);
      tr.addEventListener("click", () => (tr.classList.contains("on") ? off() : on()));
      list.append(tr);
    });
    const unitName = unit ? (lang === "zh" ? unit.zh : unit.en) : "";
    list.append(h("tr.total", null, h("td", { colspan: 3 }, t("s_total")), h("td.sub", null, `${r.total ?? r.fan_total} ${unitName}`.trim())));
    if (rows.length) card.append(list);
    const steps = /** @type {Array<{zh: string, en: string}>} */ (rows.length && Array.isArray(r.steps) ? r.steps : []);
    if (steps.length) card.append(h("details.steps", null, h("summary", null, t("s_steps")), ...steps.map((step) => h("div.step", null, lang === "zh" ? step.zh : step.en))));
    if (o.family === "xiamen") card.append(h("p.formula", null, xiamenFormula(o, how, Number(r.fan_total), Number(r.points))));
  }

  const mine = (r.deltas || [0, 0])[o.me] || 0;
  const beans = o.end.beans ? o.end.beans[o.me] : 0;
  const sign = (/** @type {number} */ n) => (n > 0 ? `+${num(n)}` : num(n));
  if (!o.campaign) card.append(
    h(
      "div.settle-sums",
      null,
      h("div", null, h("span.label", null, t("s_points")), h(`span.amount.${mine >= 0 ? "plus" : "minus"}`, null, sign(mine))),
      h("div", null, h("span.label", null, t("s_beans")), o.end.stake ? h(`span.amount.${beans >= 0 ? "plus" : "minus"}`, null, sign(beans)) : h("span.amount", null, t("s_score_only"))),
    ),
  );
  if (o.extra) card.append(o.extra); // the quick review (hints.js)
  const buttons = h("div.settle-buttons");
  if (o.campaign) {
    card.append(h("div.settle-campaign", null, campaignStats(o.campaign), o.campaign.last ? payoutEl(o.campaign.last) : null));
    if (o.onNext) buttons.append(h("button.primary.settle-next", { type: "button", onclick: o.onNext }, t("c_to_campaign"), h("kbd", null, "N")));
  } else if (o.onNext && !o.closed) {
    buttons.append(h("button.primary.settle-next", { type: "button", disabled: o.waiting, onclick: o.onNext }, o.waiting ? t("s_waiting") : t("s_next"), h("kbd", null, "N")));
  }
  if (o.onReplay) buttons.append(h("button.settle-replay", { type: "button", onclick: o.onReplay }, t("s_replay")));
  if (o.onLeave) buttons.append(h("button.ghost.settle-leave", { type: "button", onclick: o.onLeave }, t("leave")));
  card.append(buttons);
  return box;
}

/** @param {string} family @param {string} how @returns {string} */
export function winTypeText(family, how) {
  if (family === "xiamen") {
    const id = { discard: "pinghu", robbing: "qianggang" }[how] || how;
    const row = (NAMES.xiamen_win || {})[id];
    if (row) return `${row.zh} ${row.en} (×${row.m}${row.bonus ? ` +${row.bonus}` : ""})`;
  }
  const key = `how_${how}`;
  const text = t(key);
  return text === key ? how : `${text}`;
}

/** xiamen R-4.1: (底 + 水) × M, capped, + bonus. @param {SettleOpts} o @param {string} how @param {number} water @param {number} points @returns {string} */
function xiamenFormula(o, how, water, points) {
  const id = { discard: "pinghu", robbing: "qianggang" }[how] || how;
  const row = (NAMES.xiamen_win || {})[id];
  if (!row) return "";
  const base = Number(o.options.base ?? 8) * 2 ** o.streak;
  const cap = Number(o.options.cap ?? 100);
  let raw = (base + water) * row.m;
  const capped = cap > 0 && raw > cap;
  if (capped) raw = cap;
  const bonus = row.bonus ? ` ${capped ? `→ ${cap}` : ""} + ${row.bonus}` : capped ? ` → ${cap}` : "";
  const total = raw + (row.bonus || 0);
  if (total !== points) return t("s_points") + ` ${points}`;
  return t("s_formula", base, water, row.m, bonus, points);
}
