// The choices of tiles to give up (arcade's R2.21 opening exchange and R2.22 answer to a pung
// offer): the tiles are sent one `give:X` at a time, in canonical order, then `exchange` (the
// third give takes the pung).  The server keeps the tiles given so far (the family's `giving`
// hook reads them from the view), so a reload or reconnect in the middle shows them as given
// and carries on with the rest only.

import { t } from "./i18n.js";
import { familyClient } from "./families.js";
import { formatTiles, parseTiles, sortTiles, tileKey } from "./notation.js";

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {import("./actions.js").Button} Button */
/** @typedef {"exchange"|"takepung"} GivingMode */

/** The tiles given so far in the choice the seat is making (none in a family without one).
 * @param {string} family @param {Obs|null} st @returns {string[]} */
export function givenTiles(family, st) {
  const giving = familyClient(family).giving;
  return st && giving ? giving(st.view) : [];
}

/** The choice the state holds the seat in, if any: the opening exchange, or a pung answer under
 * way (its gives are then the only moves).
 * @param {Obs} st @param {number} seat @param {string[]} given the tiles given so far @returns {GivingMode|null} */
export function heldMode(st, seat, given) {
  if (st.to_act !== seat || !st.legal.length) return null;
  if (st.phase === "exchange") return "exchange";
  if (st.phase === "turn" && given.length) return "takepung";
  return null;
}

/** The hand positions shown as given up: one position for each given tile, from the right.
 * @param {string[]} order the hand in display order @param {string[]} given @returns {Set<number>} */
export function givenPositions(order, given) {
  /** @type {Set<number>} */
  const out = new Set();
  for (const tile of given) {
    for (let i = order.length - 1; i >= 0; i -= 1) {
      if (order[i] === tile && !out.has(i)) {
        out.add(i);
        break;
      }
    }
  }
  return out;
}

/** Whether `tile` may still be given: not below the last tile given (canonical order).
 * @param {string} tile @param {string[]} given @returns {boolean} */
export function canGive(tile, given) {
  return !given.length || tileKey(tile) >= tileKey(given[given.length - 1]);
}

/** How many more tiles the pung answer needs. @param {string[]} given @returns {number} */
export function pungLeft(given) {
  return 3 - given.length;
}

/**
 * The confirm button of the choice: the exchange of the given tiles plus the selected ones
 * ("Keep all" when none), or the pung once three tiles are given or selected.
 * @param {GivingMode|"ting"|null} mode @param {string[]} given @param {string[]} selected
 * @returns {Button|null}
 */
export function confirmButton(mode, given, selected) {
  const picked = selected.length ? formatTiles(selected) : "";
  if (mode === "exchange") {
    const n = given.length + selected.length;
    return { label: n ? `${t("a_exchange")} ${n}` : t("no_exchange"), key: "Enter", cls: "win", action: picked ? `exchange:${picked}` : "exchange" };
  }
  if (mode === "takepung" && selected.length && selected.length === pungLeft(given)) {
    return { label: `${t("confirm")} ${t("a_takepung")}`, key: "Enter", cls: "win", action: `takepung:${picked}` };
  }
  return null;
}

/**
 * The moves a multi-tile answer is sent as, one message each: `exchange:TILES` gives up each
 * tile (`give:X`, in canonical order) then ends with `exchange`; `takepung:TILES` is its
 * `give:X` (the tiles still to give).  Any other action is sent as it is.
 * @param {string} action @returns {string[]}
 */
export function stepsOf(action) {
  const [verb, arg] = action.split(":");
  if ((verb !== "exchange" && verb !== "takepung") || !arg) return [action];
  const gives = sortTiles(parseTiles(arg)).map((x) => `give:${x}`);
  return verb === "exchange" ? [...gives, "exchange"] : gives;
}

/** The prompt of the choice. @param {GivingMode} mode @param {string[]} given @param {string} offer the offered tile's name
 * @returns {string} */
export function givingPrompt(mode, given, offer) {
  if (mode === "exchange") return given.length ? t("exchange_more", given.length) : t("select_n");
  return given.length ? t("pung_more", pungLeft(given), offer) : t("pung_offer", offer);
}
