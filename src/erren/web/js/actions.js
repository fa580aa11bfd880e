// The legal actions of the seat to act as buttons: label, shortcut key, and the action sent (or
// a mode switched, or a choice of tiles to open).

import { chosenInMode, confirmButton, isSelecting, openedBy } from "./selection.js";
import { t } from "./i18n.js";
import { familyVerb } from "./families.js";
import { parseTiles } from "./notation.js";

/** @typedef {{label: string, key: string, cls?: string, options?: Array<{action: string, tiles: string[], label?: string}>, action?: string, run?: () => void}} Button */

/** Where each shared button goes (a family's own moves and the buttons opening its selection
 * modes say their place: families.js). @type {Record<string, number>} */
const PLACE = { hu: 0, zimo: 1, gang: 5, peng: 6, chi: 7, ting: 8, pass: 12 };

/**
 * The buttons of the legal actions, grouped by verb in a fixed order (discards are clicks on
 * tiles); in a family's selection mode (selection.js) its confirm button comes first.  `given`
 * are the tiles already given up in that choice (the family's `giving`): while one is under way
 * no other mode opens.
 * @param {{legal: string[], mode: string|null, pending: string|null, given: string[], selectedTiles: () => string[], toggleMode: (mode: string) => void}} o
 * @returns {Button[]}
 */
export function actionButtons(o) {
  const legal = o.legal;
  /** the places of the buttons opening a mode @type {Record<string, number>} */
  const places = {};
  /** @type {Map<string, Button>} */
  const groups = new Map();
  /** @param {string} verb @param {Button} b */
  const add = (verb, b) => {
    const old = groups.get(verb);
    if (old && old.options && b.options) old.options.push(...b.options);
    else if (!old) groups.set(verb, b);
  };
  for (const a of legal) {
    const [verb, arg] = a.split(":");
    const tiles = arg ? parseTiles(arg) : [];
    if (verb === "discard") continue;
    if (verb === "hu" || verb === "zimo") add(verb, { label: t(verb === "zimo" ? "a_zimo" : "a_hu"), key: "h", cls: "win", action: a });
    else if (verb === "peng") add(verb, { label: t("a_peng"), key: "p", action: a });
    else if (verb === "minggang" || verb === "angang" || verb === "jiagang") {
      const shown = tiles.length ? [tiles[0], tiles[0], tiles[0], tiles[0]] : o.pending ? Array(4).fill(o.pending) : [];
      add("gang", { label: t("a_gang"), key: "k", options: [{ action: a, tiles: shown }] });
    } else if (verb === "chi") add(verb, { label: t("a_chi"), key: "c", options: [{ action: a, tiles }] });
    else if (verb === "ting") add(verb, { label: t("a_ting"), key: "t", cls: o.mode === "ting" ? "on" : "", run: () => o.toggleMode("ting") });
    else if (openedBy(verb)) {
      // a mode's tiles are chosen as a whole: its button opens it (unless another mode is open)
      const m = /** @type {import("./families.js").SelectionMode} */ (openedBy(verb));
      const op = /** @type {{verb: string, label: string, key: string, place: number}} */ (m.opener);
      places[m.mode] = op.place;
      if (!(isSelecting(o.mode) && o.mode !== m.mode) && !o.given.length) add(m.mode, { label: t(op.label), key: op.key, cls: o.mode === m.mode ? "on" : "", run: () => o.toggleMode(m.mode) });
    }
    else if (chosenInMode(verb)) continue;
    else if (verb === "pass") add(verb, { label: t("a_pass"), key: " ", cls: "pass", action: a });
    else {
      const own = familyVerb(verb);
      if (!own) add(verb, { label: verb, key: "", action: a });
      else if (own.tiles) add(verb, { label: t(own.label), key: own.key, cls: own.cls, options: [{ action: a, tiles }] });
      else add(verb, { label: t(own.label), key: own.key, cls: own.cls, action: a });
    }
  }
  /** @param {string} verb @returns {number} */
  const place = (verb) => PLACE[verb] ?? places[verb] ?? familyVerb(verb)?.place ?? -1;
  const out = [...groups.entries()].sort((a, b) => place(a[0]) - place(b[0])).map((e) => e[1]);
  const confirm = legal.length ? confirmButton(o.mode, o.given, isSelecting(o.mode) ? o.selectedTiles() : []) : null;
  if (confirm) out.unshift(confirm);
  return out;
}
