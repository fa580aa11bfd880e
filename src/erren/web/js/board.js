// The table as seen by one player (live play) or by a spectator with both hands open (replays).

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { sortTiles } from "./notation.js";
import { warnTimer } from "./sound.js";
import { warnTime } from "./announce.js";
import { tileEl, tileName } from "./tiles.js";
import { badgeText, familyClient, markOf, selectionModes } from "./families.js";

/**
 * An observation as the server sends it (schema.js, generated from the engine), plus both
 * concealed hands in a replay frame.
 * @typedef {import("./schema.js").Meld} Meld
 * @typedef {import("./schema.js").Observation & {hands?: string[][]}} Obs
 */

/** @typedef {import("./families.js").TileMark} TileMark */
/** @typedef {import("./families.js").IndicatorPart} IndicatorPart */
/** @typedef {import("./families.js").TableContext} TableContext */

/**
 * The board of a family's table: ``marks``, the tiles its family marks (its wilds: they
 * wear a badge and are drawn first in the hand), ``indicators``, what the family shows at the
 * centre, ``offer``, a tile offered for a pung answered by giving tiles up (a selection mode:
 * selection.js).
 * @typedef {{
 *   family: string, me: number, names: string[], state: Obs,
 *   open: boolean, marks: TileMark[], indicators: IndicatorPart[][],
 *   lastDiscard: {seat: number, index: number}|null, oppDrew: boolean,
 *   online: boolean[], ready: boolean[], handNo: number, timerEnd: number|null, timerMine?: boolean,
 *   lastText: string, offer?: string|null,
 *   clickable?: (tile: string, index: number) => boolean, onTile?: (index: number, tile: string) => void,
 *   selected?: Set<number>, given?: Set<number>, focus?: number, advised?: string|null,
 *   actions?: HTMLElement|null, prompt?: HTMLElement|null, trustee?: HTMLElement|null,
 *   tileHook?: (el: HTMLElement, tile: string) => void, watching?: boolean
 * }} BoardView
 */

/**
 * The family's marks and centre indicators of a table's view (families.js), for a board.
 * @param {string} family @param {Obs} st @param {TableContext} ctx
 * @returns {{marks: TileMark[], indicators: IndicatorPart[][]}}
 */
export function familyBoard(family, st, ctx) {
  const client = familyClient(family);
  return { marks: client.marks ? client.marks(st.view, ctx) : [], indicators: client.indicators ? client.indicators(st.view, ctx) : [] };
}

/** The badge of a marked tile, if the tile is one. @param {BoardView} v @param {string} tile @returns {string|undefined} */
function badge(v, tile) {
  return badgeText(markOf(v.marks, tile));
}

/** Whether the state is a phase of a family's choice of several tiles (a selection mode that
 * stays open through it). @param {Obs} st @returns {boolean} */
function choosing(st) {
  return selectionModes().some((m) => !!m.stays && m.stays(st));
}

/** Is the tile a wild (a gold or a 财神; not a White playing as the gold)? @param {BoardView} v @param {string} tile @returns {boolean} */
function isWild(v, tile) {
  return !!markOf(v.marks, tile)?.wild;
}

/** Wilds first (xiamen R-1.7: golds at the far left), then the rest sorted. @param {BoardView} v @param {string[]} tiles @returns {string[]} */
export function arrange(v, tiles) {
  const sorted = sortTiles(tiles);
  const wild = sorted.filter((x) => isWild(v, x));
  return [...wild, ...sorted.filter((x) => !isWild(v, x))];
}

/** @param {BoardView} v @param {number} seat @returns {HTMLElement} */
function meldsEl(v, seat) {
  const box = h("div.melds");
  const lang = getLang();
  for (const m of v.state.melds[seat] || []) {
    const g = h(`div.meld.meld-${m.kind}`, { title: t(m.kind === "chi" ? "a_chi" : m.kind === "peng" ? "a_peng" : "a_gang") });
    m.tiles.forEach((tile, i) => {
      const hidden = m.kind === "an_gang" && (i === 0 || i === 3);
      let claimed = false;
      if (m.claimed && tile === m.claimed && !g.querySelector(".claimed")) claimed = m.kind !== "an_gang";
      g.append(tileEl(hidden ? "back" : tile, { size: "s", lang, badge: hidden ? undefined : badge(v, tile), cls: claimed ? "claimed" : "" }));
    });
    box.append(g);
  }
  for (let i = 0; i < (v.state.hidden_kongs[seat] || 0); i += 1) {
    box.append(h("div.meld.meld-an_gang", null, ...[0, 1, 2, 3].map(() => tileEl("back", { size: "s" }))));
  }
  return box;
}

/** @param {BoardView} v @param {number} seat @returns {HTMLElement} */
function flowersEl(v, seat) {
  const fl = v.state.flowers[seat] || [];
  return h("div.flowers", null, ...fl.map((f) => tileEl(f, { size: "xs", lang: getLang() })));
}

/** @param {BoardView} v @param {number} seat @returns {HTMLElement} */
function barEl(v, seat) {
  const st = v.state;
  const who = v.open ? "" : seat === v.me ? t("you") : t("opponent");
  const badges = [];
  if (st.dealer === seat) badges.push(h("span.badge.badge-dealer", { title: t("dealer") }, getLang() === "zh" ? "庄" : "D"));
  if (st.ting[seat]) badges.push(h("span.badge.badge-ting", null, t("ting_badge")));
  if (st.trustee[seat]) badges.push(h("span.badge.badge-trustee", null, t("trustee_on")));
  const tags = familyClient(v.family).seatTags;
  for (const tag of tags ? tags(st.view, seat) : []) badges.push(h(`span.badge.${tag.cls}`, null, tag.text));
  if (!v.online[seat]) badges.push(h("span.badge.badge-off", null, t("offline")));
  if (st.to_act === seat) badges.push(h("span.badge.badge-turn", null, "●"));
  return h(
    `div.bar${st.to_act === seat ? ".acting" : ""}`,
    { "data-seat": seat },
    h("span.who", null, who ? `${who} · ${v.names[seat] || "?"}` : v.names[seat] || "?"),
    ...badges,
    flowersEl(v, seat),
  );
}

/**
 * The display order of a concealed hand: wilds first, then sorted, the drawn tile set apart last.
 * @param {BoardView} v @param {string[]} tiles @param {number} seat
 * @returns {{order: string[], drawn: string|null}}
 */
export function handOrder(v, tiles, seat) {
  const st = v.state;
  let rest = [...tiles];
  /** @type {string|null} */
  let drawn = null;
  const lastDrawn = st.to_act === seat ? st.last_drawn : null;
  if (lastDrawn && rest.includes(lastDrawn) && rest.length % 3 === 2) {
    drawn = lastDrawn;
    rest.splice(rest.lastIndexOf(lastDrawn), 1);
  }
  rest = arrange(v, rest);
  return { order: drawn ? [...rest, drawn] : rest, drawn };
}

/**
 * A tile of the player's own hand as a button read out by its name and place ("二万, 第3张", and
 * 金/财神 or given up when it is), in the tab order: Enter or Space plays it (keys.js) when it
 * may be played, else it is read as unavailable.
 * @param {BoardView} v @param {HTMLElement} el @param {string} tile @param {number} i @param {boolean} can
 */
function myTile(v, el, tile, i, can) {
  const mark = markOf(v.marks, tile);
  const given = v.given && v.given.has(i) ? t("tile_given") : "";
  const name = [tileName(tile, getLang()), mark ? t(mark.name) : "", t("tile_nth", i + 1), given].filter(Boolean).join(", ");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", name);
  if (!can) el.setAttribute("aria-disabled", "true");
  if (v.selected && v.selected.has(i)) el.setAttribute("aria-pressed", "true");
  el.tabIndex = 0;
}

/** The concealed hand of `seat`: open tiles (mine, or both in a replay) or backs. @param {BoardView} v @param {number} seat @returns {HTMLElement} */
function handEl(v, seat) {
  const st = v.state;
  const lang = getLang();
  const mine = seat === v.me;
  const box = h(`div.hand${mine ? ".hand-mine" : ".hand-opp"}`);
  // a spectator (watch.js) sees both hands face down: the public view has no concealed tile
  const tiles = mine && !v.watching ? st.hand : v.open && st.hands ? st.hands[seat] : null;
  if (!tiles) {
    const n = st.concealed_count[seat] || 0;
    for (let i = 0; i < n; i += 1) {
      const el = tileEl("back", { size: "s", cls: v.oppDrew && i === n - 1 ? "drawn" : "" });
      box.append(el);
    }
    return box;
  }
  const { order, drawn } = handOrder(v, tiles, seat);
  // the hint's tile (discard or 报听): the last copy, the drawn tile when it is the one
  const advisedAt = mine && v.advised ? order.lastIndexOf(v.advised) : -1;
  order.forEach((tile, i) => {
    const can = mine && v.clickable ? v.clickable(tile, i) : false;
    const given = mine && v.given ? v.given.has(i) : false;
    const cls = [
      drawn && i === order.length - 1 ? "drawn" : "",
      can ? "can" : mine && v.clickable && st.to_act === v.me && (st.phase === "turn" || choosing(st)) ? "cannot" : "",
      v.selected && v.selected.has(i) ? "selected" : "",
      given ? "given" : "",
      v.focus === i ? "focus" : "",
      i === advisedAt ? "advised" : "",
    ].join(" ");
    const el = tileEl(tile, { size: mine ? "l" : "s", lang, badge: badge(v, tile), cls });
    if (given) {
      el.title = `${el.title} · ${t("tile_given")}`;
      el.setAttribute("aria-label", el.title);
    }
    if (mine) {
      if (v.clickable) myTile(v, el, tile, i, can); // a live table (a replay's hands are only seen)
      else el.tabIndex = -1;
      if (v.tileHook) v.tileHook(el, tile); // the ready hints (hints.js), before the click
      el.dataset.index = String(i);
      if (can && v.onTile) {
        const onTile = v.onTile;
        el.addEventListener("click", () => onTile(i, tile));
      }
    }
    box.append(el);
  });
  return box;
}

/** Whose discards a river holds, in the player's words (a replay names both seats).
 * @param {BoardView} v @param {number} seat @returns {string} */
function riverLabel(v, seat) {
  if (v.open) return t("river_of", v.names[seat] || "?");
  return t(seat === v.me ? "river_mine" : "river_opp");
}

/** A seat's discards under a label saying whose they are. @param {BoardView} v @param {number} seat @returns {HTMLElement} */
function riverEl(v, seat) {
  const st = v.state;
  const side = seat === v.me ? "mine" : "opp";
  const claimed = new Set(st.claimed[seat] || []);
  const box = h(`div.river.river-${side}`);
  (st.discards[seat] || []).forEach((tile, i) => {
    const last = v.lastDiscard && v.lastDiscard.seat === seat && v.lastDiscard.index === i;
    const cls = `${claimed.has(i) ? "taken" : ""}${last ? " last" : ""}`;
    box.append(tileEl(tile, { size: "s", lang: getLang(), badge: badge(v, tile), cls }));
  });
  const label = h(`span.river-label#river-label-${seat}`, null, riverLabel(v, seat));
  return h(`div.river-box.river-box-${side}`, { role: "group", "aria-labelledby": `river-label-${seat}` }, label, box);
}

/** Write a countdown's seconds left and its urgency (the player's own beeps in its last seconds).
 * @param {HTMLElement} el @returns {void} */
function refreshTimer(el) {
  const end = Number(el.dataset.end);
  const secs = el.querySelector(".secs");
  if (!end || !secs) return;
  const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
  secs.textContent = `${left}s`;
  el.classList.toggle("urgent", left <= 5);
  if (el.dataset.mine === "1") {
    warnTimer(String(end), left);
    warnTime(String(end), left);
  }
}

/**
 * Whose turn it is (▼ the player's, ▲ the opponent's) and the seconds left, written as it is
 * drawn (the interval only refreshes it, so a redraw never blanks it).  While it is the player's
 * turn but he has nothing to decide (the table passes a claim window for him, or his move is on
 * its way) no countdown shows: a quiet "…" until the next one starts.
 * @param {BoardView} v @returns {HTMLElement}
 */
function timerEl(v) {
  const st = v.state;
  if (st.to_act === null) return h("div.timer");
  if (!v.open && st.to_act === v.me && !v.timerMine) return h("div.timer.idle", null, h("span.wait", null, "…"));
  const el = h("div.timer", { "data-end": v.timerEnd ? String(v.timerEnd) : "", "data-seat": String(st.to_act), "data-mine": v.timerMine ? "1" : "" });
  el.append(h("span.arrow", null, st.to_act === v.me ? "▼" : "▲"), h("span.secs", null, ""));
  refreshTimer(el);
  return el;
}

/** @param {BoardView} v @returns {HTMLElement} */
function centerEl(v) {
  const st = v.state;
  const lang = getLang();
  const info = h("div.center");
  info.append(h("div.left-count", null, t("tiles_left", st.wall_count)));
  const line = h("div.center-line");
  line.append(h("span", null, t("hand_no", v.handNo || 1)));
  line.append(h("span", { title: t("round_wind") }, `${t("round_wind")} ${t(`wind_${st.round_wind.charAt(0)}`)}`));
  info.append(line);
  for (const row of v.indicators) {
    const parts = row.map((p) => ("text" in p ? h("span", null, t(p.text)) : tileEl(p.tile, { size: p.size, lang, badge: badgeText(p.badge) })));
    info.append(h("div.indicator", null, ...parts));
  }
  if (v.offer) info.append(h("div.indicator", null, h("span", null, t("pung_offer_short")), tileEl(v.offer, { size: "xs", lang })));
  info.append(timerEl(v));
  if (v.lastText) info.append(h("div.last-text", null, v.lastText));
  return info;
}

/** The whole board. @param {BoardView} v @returns {HTMLElement} */
export function boardEl(v) {
  const me = v.me;
  const opp = 1 - me;
  return h(
    `div.board.family-${v.family}`,
    null,
    h("div.seat.seat-opp", null, barEl(v, opp), h("div.hand-row", null, handEl(v, opp), meldsEl(v, opp))),
    h("div.middle", null, riverEl(v, opp), centerEl(v), riverEl(v, me)),
    h(
      "div.seat.seat-mine",
      null,
      v.prompt || null,
      v.actions || null,
      h("div.hand-row", null, meldsEl(v, me), handEl(v, me)),
      h("div.bar-row", null, barEl(v, me), v.trustee || null),
    ),
  );
}

/** Refresh every visible countdown (called by an interval); the player's own beeps in its last
 * seconds. */
export function tickTimers() {
  for (const el of document.querySelectorAll(".timer[data-end]")) {
    if (el instanceof HTMLElement) refreshTimer(el);
  }
}
