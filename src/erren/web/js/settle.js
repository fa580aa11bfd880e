// The settlement: both hands laid out (the winner's first), the wilds marked as on the board,
// each seat's 听 at a drawn hand, the fan / pattern / 水 list in Chinese and English with values
// (hover or tap a row to light up its tiles), what each player received in points and beans, his
// rank points in a bean room (ranks.js), and next hand, another game (after an escape) or leave.

import { h } from "./dom.js";
import { change, getLang, otherLang, t } from "./i18n.js";
import { parseHand, sortTiles } from "./notation.js";
import { tileEl, tileName } from "./tiles.js";
import { rulesHref } from "./rules.js";
import { badgeText, familyClient, markOf } from "./families.js";
import { rankMoveEl, unrankedEl } from "./ranks.js";

/** @type {Record<string, any>} */
let NAMES = {};

/** Load the scoring names the families' win types use (served from the scoring tables). */
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

/**
 * One seat's hand as the settlement sends it (``end.hands``): the concealed tiles and melds in
 * the shared notation (the winner's with ``+X``), and the flowers he set aside.
 * @typedef {{hand: string, flowers: string[]}} SeatHandJson
 */

/** @param {string} hand @param {string[]|null} flowers the flowers apart (else the hand's own) @returns {Laid[]} */
function layout(hand, flowers) {
  const p = parseHand(hand);
  /** @type {Laid[]} */
  const out = [];
  for (const tile of sortTiles(p.concealed)) out.push({ tile, group: "hand", meld: "", mi: -1 });
  p.melds.forEach((m, mi) => {
    for (const tile of m.tiles) out.push({ tile, group: "meld", meld: m.kind, mi });
  });
  if (p.win) out.push({ tile: p.win, group: "win", meld: "", mi: -1 });
  for (const tile of flowers || p.flowers) out.push({ tile, group: "flower", meld: "", mi: -1 });
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
 *   streak: number, marks: import("./families.js").TileMark[], waiting: boolean, opponentReady: boolean,
 *   closed: boolean,
 *   onNext: (() => void)|null, onLeave: (() => void)|null, onReplay: (() => void)|null,
 *   onAgain?: (() => void)|null, extra?: HTMLElement|null}} SettleOpts
 */

/** A seat's name as the settlement says it: 你 · alice, 对手 · bob; to a watcher (``o.me`` −1:
 * the replay of a hand he did not play) the name alone. @param {SettleOpts} o @param {number} seat @returns {string} */
function seatLabel(o, seat) {
  if (o.me < 0) return o.names[seat] || t("seat_n", seat + 1);
  const who = seat === o.me ? t("you") : t("opponent");
  const name = o.names[seat];
  return name && name !== who ? `${who} · ${name}` : who;
}

/** @param {SettleOpts} o @returns {HTMLElement} */
export function settlementEl(o) {
  const r = o.end.result || {};
  // the family's own part (its kind of table's figures), when the settlement carries it
  const own = familyPart(o);
  // a closed table's settlement (an escape's, under the closing notice) stays in the page
  const box = h(`div.settle${o.closed ? ".settle-inline" : ""}`, { role: o.closed ? "region" : "dialog", "aria-label": t("s_title") });
  const card = h("div.settle-card");
  box.append(card);
  card.append(titleEl(o, r));
  // who escaped (a closed table's notice says it already)
  if (r.kind === "abort" && !o.closed) card.append(h("p.settle-escape", { role: "status" }, t(r.loser === o.me ? "closed_escaped_me" : "closed_escaped")));
  const hands = handsEl(o, r);
  if (r.kind === "win" && r.hand) {
    card.append(h("div.settle-who", null, `${r.winner === o.me ? t("you") : o.names[r.winner] || t("opponent")} · ${t("s_type")}: ${winTypeText(o.family, String(r.how || ""))}`));
  }
  if (hands.box) card.append(hands.box);
  if (r.kind === "win" && r.hand) scoreEls(o, r, hands.winner, own).forEach((el) => card.append(el));
  if (!own || own.amounts) card.append(amountsEl(o, r));
  // a bean-room hand's rank move, or a friend table's "unranked" line (ranks.js)
  const rank = rankMoveEl(o.end.ranks, o.me) || unrankedEl(o.end);
  if (rank) card.append(rank);
  if (o.extra) card.append(o.extra); // the quick review (hints.js)
  if (own) card.append(own.el);
  card.append(buttonsEl(o, own));
  return box;
}

/** The family's own part of the settlement (its `settlement` hook), if it has one.
 * @param {SettleOpts} o @returns {import("./families.js").SettlePart|null} */
function familyPart(o) {
  const part = familyClient(o.family).settlement;
  return part ? part(o.end) : null;
}

/** @param {SettleOpts} o @param {any} r the result @returns {HTMLElement} */
function titleEl(o, r) {
  let title = t("s_draw");
  let cls = "draw";
  if (r.kind === "win" && o.me < 0) title = t("watch_won", seatLabel(o, Number(r.winner)));
  else if (r.kind === "win") {
    title = r.winner === o.me ? t("s_win") : t("s_lose");
    cls = r.winner === o.me ? "won" : "lost";
  } else if (r.kind === "abort") {
    title = t("s_abort");
    if (o.me >= 0) cls = r.loser === o.me ? "lost" : "won";
  }
  return h(`h2.settle-title.${cls}`, null, title);
}

/**
 * The hands to show: both seats' from ``end.hands`` (the winner's first, else the player's), or
 * the winner's alone from the result (a replay, the guided hand).
 * @param {SettleOpts} o @param {any} r @returns {Array<{seat: number, hand: string, flowers: string[]|null}>}
 */
function shownHands(o, r) {
  /** @type {SeatHandJson[]|null} */
  const hands = Array.isArray(o.end.hands) && o.end.hands.length === 2 ? o.end.hands : null;
  if (!hands) return r.kind === "win" && r.hand ? [{ seat: Number(r.winner), hand: String(r.hand), flowers: null }] : [];
  const first = r.kind === "win" ? Number(r.winner) : Math.max(o.me, 0);
  return [first, 1 - first].map((seat) => ({ seat, hand: String(hands[seat].hand), flowers: (hands[seat].flowers || []).map(String) }));
}

/**
 * Both hands, each under its player's name (and his 听 at a drawn hand), the wilds marked as on
 * the board (board.js ``wildMark``): the badge, and the name said with the tile's.
 * @param {SettleOpts} o @param {any} r
 * @returns {{box: HTMLElement|null, winner: {laid: Laid[], els: HTMLElement[]}}}
 */
function handsEl(o, r) {
  const lang = getLang();
  const shown = shownHands(o, r);
  /** @type {{laid: Laid[], els: HTMLElement[]}} */
  const winner = { laid: [], els: [] };
  if (!shown.length) return { box: null, winner };
  /** @type {boolean[]|null} */
  const ready = Array.isArray(o.end.ready) ? o.end.ready : null;
  const box = h("div.settle-hands", { role: "group", "aria-label": t("s_hands") });
  for (const { seat, hand, flowers } of shown) {
    const laid = layout(hand, flowers);
    const row = h("div.settle-hand", { "aria-label": seatLabel(o, seat) });
    /** @type {HTMLElement[]} */
    const els = [];
    let prev = "";
    for (const l of laid) {
      const group = l.group === "meld" ? `meld${l.mi}` : l.group;
      if (prev && group !== prev) row.append(h("span.gap"));
      prev = group;
      const el = markedTile(o, l.tile, l.group === "win" ? "winning" : l.group === "flower" ? "flower" : "", lang);
      els.push(el);
      row.append(el);
    }
    if (r.kind === "win" && seat === Number(r.winner)) Object.assign(winner, { laid, els });
    const mark = ready ? h(`span.settle-ready.${ready[seat] ? "ready" : "not-ready"}`, null, t(ready[seat] ? "s_ready" : "s_not_ready")) : null;
    box.append(h("div.settle-seat", { dataset: { seat: String(seat) } }, h("div.settle-seat-head", null, h("span.settle-name", null, seatLabel(o, seat)), mark), row));
  }
  return { box, winner };
}

/** A tile of a settled hand; a wild (or a White playing as the gold) wears the board's badge and
 * says what it is. @param {SettleOpts} o @param {string} tile @param {string} cls @param {"zh"|"en"} lang @returns {HTMLElement} */
function markedTile(o, tile, cls, lang) {
  const mark = markOf(o.marks, tile);
  // a flower set aside is drawn smaller, as on the board
  const el = tileEl(tile, { size: cls === "flower" ? "s" : "m", lang, cls: [cls, mark ? "wild" : ""].join(" ").trim(), badge: badgeText(mark) });
  if (mark) {
    const name = `${tileName(tile, lang)} · ${t(mark.name)}`;
    el.setAttribute("aria-label", name);
    el.title = name;
  }
  return el;
}

/**
 * The score of a win: the rows (hover or tap lights the winner's tiles), the steps, the
 * family's line under them (its `formula`). @param {SettleOpts} o @param {any} r @param {{laid: Laid[], els: HTMLElement[]}} winner
 * @param {import("./families.js").SettlePart|null} own the family's own part of the settlement
 * @returns {HTMLElement[]}
 */
function scoreEls(o, r, winner, own) {
  const lang = getLang();
  const out = [];
  const { laid, els } = winner;
  // the family's part may leave the opponent's rows out (his win is checked, not counted)
  // Every family's score arrives as the same rows (erren.scoring.detail.FamilyScore): the name
  // in both languages, value, count and the tiles each row came from (``fan_tiles``).
  const family = familyClient(o.family);
  const rows = /** @type {ScoreRowJson[]} */ (own && !own.opponentRows && o.me >= 0 && r.winner !== o.me ? [] : r.rows || []);
  // the rows' caption is the unit's own (番种 / Patterns, 水 / Water): the family's word
  const unit = /** @type {{zh: string, en: string, caption?: {zh: string, en: string}}|null} */ (r.unit || null);
  const caption = unit && unit.caption ? unit.caption[getLang() === "zh" ? "zh" : "en"] : t("s_fans");
  const list = h("table.fans");
  list.append(h("caption", null, caption, h("span.hint", null, ` — ${t("s_hover")}`)));
  list.append(h("tr.heads", null, ...["s_h_name", "s_h_alt", "s_h_value", "s_h_sub"].map((k) => h("th", { scope: "col" }, t(k)))));
  /** @type {Array<Array<{tiles: string[], meld: number|null}>>|null} */
  const exact = Array.isArray(r.fan_tiles) && r.fan_tiles.length === rows.length ? r.fan_tiles : null;
  rows.forEach((row, fi) => {
    // the Chinese screen shows the Chinese name only; the English one adds the Chinese term
    const [name, other] = lang === "zh" ? [row.zh, ""] : [row.en || row.zh, row.zh];
    const lit = exact ? exactTiles(exact[fi], laid) : new Set();
    const table = family.fanTable && o.options ? family.fanTable(o.options) : null;
    const nameEl = row.id ? h("a.rule-link", { href: rulesHref(o.family, row.id, table), title: t("rules_link") }, name) : name;
    const tr = h("tr.fan", { tabindex: 0 }, h("td.name", null, nameEl), h("td.alt", { lang: otherLang() }, other), h("td.val", null, row.count > 1 ? `${row.value} × ${row.count}` : String(row.value)), h("td.sub", null, String(row.value * row.count)));
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
  if (rows.length) out.push(list);
  const steps = /** @type {Array<{zh: string, en: string}>} */ (rows.length && Array.isArray(r.steps) ? r.steps : []);
  if (steps.length) out.push(h("details.steps", null, h("summary", null, t("s_steps")), ...steps.map((step) => h("div.step", null, lang === "zh" ? step.zh : step.en))));
  const line = family.formula ? family.formula({ how: String(r.how || ""), total: Number(r.fan_total), points: Number(r.points), options: o.options, streak: o.streak, names: NAMES }) : null;
  if (line !== null) out.push(h("p.formula", null, line));
  return out;
}

/**
 * What each player received, the player's own row first: points (``result.deltas``) and, in a
 * bean room, beans exactly as the ledger moved them (``end.beans``).
 * @param {SettleOpts} o @param {any} r @returns {HTMLElement}
 */
function amountsEl(o, r) {
  const deltas = Array.isArray(r.deltas) ? r.deltas.map(Number) : [0, 0];
  const beans = Array.isArray(o.end.beans) ? o.end.beans.map(Number) : [0, 0];
  const amount = (/** @type {number} */ n) => h(`td.amount.${n > 0 ? "plus" : n < 0 ? "minus" : "zero"}`, null, change(n));
  const table = h(
    "table.settle-amounts",
    null,
    h("caption", null, t("s_amounts")),
    h("tr", null, h("th", { scope: "col" }, t("s_player")), h("th", { scope: "col" }, t("s_points")), h("th", { scope: "col" }, t("s_beans"))),
  );
  for (const seat of o.me < 0 ? [0, 1] : [o.me, 1 - o.me]) {
    table.append(
      h(
        `tr.settle-amount${seat === o.me ? ".mine" : ""}`,
        { dataset: { seat: String(seat) } },
        h("th", { scope: "row" }, seatLabel(o, seat)),
        amount(deltas[seat] || 0),
        o.end.stake ? amount(beans[seat] || 0) : h("td.amount.none", null, t(o.end.beansHidden ? "s_beans_hidden" : "s_score_only")),
      ),
    );
  }
  return table;
}

/** @param {SettleOpts} o @param {import("./families.js").SettlePart|null} own @returns {HTMLElement} */
function buttonsEl(o, own) {
  const buttons = h("div.settle-buttons");
  if (own) {
    if (o.onNext) buttons.append(h("button.primary.settle-next", { type: "button", onclick: o.onNext }, t(own.next), h("kbd", null, "N")));
  } else if (o.onNext && !o.closed) {
    buttons.append(h("button.primary.settle-next", { type: "button", disabled: o.waiting, onclick: o.onNext }, o.waiting ? t("s_waiting") : t("s_next"), h("kbd", null, "N")));
  }
  if (o.closed && o.onAgain) buttons.append(h("button.primary.settle-again", { type: "button", onclick: o.onAgain }, t("s_again")));
  if (o.onReplay) buttons.append(h("button.settle-replay", { type: "button", onclick: o.onReplay }, t("s_replay")));
  if (o.onLeave) buttons.append(h("button.ghost.settle-leave", { type: "button", onclick: o.onLeave }, t("leave")));
  return buttons;
}

/** How a hand was won, in words: the family's win type, else the shared words.
 * @param {string} family @param {string} how @returns {string} */
export function winTypeText(family, how) {
  const winType = familyClient(family).winType;
  const named = winType ? winType(how, NAMES) : null;
  if (named) return named;
  const key = `how_${how}`;
  const text = t(key);
  return text === key ? how : `${text}`;
}
