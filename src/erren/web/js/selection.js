// The choices of several tiles at once a family's moves make (its selection modes, families.js:
// an opening exchange, an answer to a pung offered): the player picks tiles on his hand
// and confirms; the answer is sent as the mode says, one message at a time.  The server keeps
// the tiles given so far (the family's `giving` hook reads them from the view), so a reload or
// reconnect in the middle shows them as given and carries on with the rest only.  Nothing here
// names a family or a mode.

import { familyClient, selectionMode, selectionModes } from "./families.js";
import { formatTiles, parseTiles, sortTiles, tileKey } from "./notation.js";

/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {import("./actions.js").Button} Button */

/** The tiles given so far in the choice the seat is making (none in a family without one).
 * @param {string} family @param {Obs|null} st @returns {string[]} */
export function givenTiles(family, st) {
  const giving = familyClient(family).giving;
  return st && giving ? giving(st.view) : [];
}

/** The mode the state holds the seat in, if any (its moves are then the mode's only).
 * @param {Obs} st @param {number} seat @param {string[]} given the tiles given so far @returns {string|null} */
export function heldMode(st, seat, given) {
  if (st.to_act !== seat || !st.legal.length) return null;
  const held = selectionModes().find((m) => m.holds(st, given));
  return held ? held.mode : null;
}

/** Whether `mode` is a selection mode (not "ting", not none). @param {string|null} mode @returns {boolean} */
export function isSelecting(mode) {
  return selectionMode(mode) !== null;
}

/** Whether the mode open stays open in this state, across turns and over Escape.
 * @param {string|null} mode @param {Obs} st @returns {boolean} */
export function modeStays(mode, st) {
  const m = selectionMode(mode);
  return !!(m && m.stays && m.stays(st));
}

/** Whether the state keeps a mode open whatever the player does: one that stays, or one the
 * state holds him in. @param {string|null} mode @param {Obs|null} st @param {number} seat @param {string[]} given
 * @returns {boolean} */
export function modeKept(mode, st, seat, given) {
  return !!st && (modeStays(mode, st) || heldMode(st, seat, given) !== null);
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

/** Whether one more tile may be picked in the mode. @param {string|null} mode @param {number} picked @param {string[]} given
 * @returns {boolean} */
export function hasRoom(mode, picked, given) {
  const m = selectionMode(mode);
  return !m || !m.room || picked < m.room(given);
}

/** The confirm button of the mode open for the tiles given and picked, or null.
 * @param {string|null} mode @param {string[]} given @param {string[]} picked @returns {Button|null} */
export function confirmButton(mode, given, picked) {
  const m = selectionMode(mode);
  const ok = m ? m.confirm(given, picked) : null;
  if (!ok) return null;
  const tiles = picked.length ? formatTiles(picked) : "";
  return { label: ok.label, key: "Enter", cls: "win", action: tiles ? `${ok.verb}:${tiles}` : ok.verb };
}

/** The mode a legal verb opens by its button, if any. @param {string} verb @returns {import("./families.js").SelectionMode|null} */
export function openedBy(verb) {
  return selectionModes().find((m) => m.opener && m.opener.verb === verb) || null;
}

/** Whether a legal verb belongs to a mode's choice (no button of its own). @param {string} verb @returns {boolean} */
export function chosenInMode(verb) {
  return selectionModes().some((m) => m.verbs.includes(verb));
}

/**
 * The messages a confirmed answer `<verb>:TILES` is sent as (its mode's steps, from the tiles
 * in canonical order); any other action is sent as it is.
 * @param {string} action @returns {string[]}
 */
export function stepsOf(action) {
  const [verb, arg] = action.split(":");
  const m = selectionMode(verb);
  if (!m || !arg) return [action];
  return m.steps(sortTiles(parseTiles(arg)));
}

/** The i18n key of the name of a mode's verb, if a mode names it. @param {string} verb @returns {string|null} */
export function modeWord(verb) {
  for (const m of selectionModes()) if (m.words && m.words[verb]) return m.words[verb];
  return null;
}
