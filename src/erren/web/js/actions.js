// The legal actions of the seat to act as buttons: label, shortcut key, and the action sent (or
// a mode switched, or a choice of tiles to open).

import { t } from "./i18n.js";
import { formatTiles, parseTiles, sortTiles } from "./notation.js";

/** @typedef {{label: string, key: string, cls?: string, options?: Array<{action: string, tiles: string[], label?: string}>, action?: string, run?: () => void}} Button */

const VERB_ORDER = ["hu", "zimo", "win", "sanjindao", "qiangjin", "gang", "peng", "chi", "ting", "takepung", "discardgold", "pick", "pass"];

/**
 * The buttons of the legal actions, grouped by verb in a fixed order (discards are clicks on
 * tiles); in the exchange and take-the-pung modes a confirm button comes first.
 * @param {{legal: string[], mode: "ting"|"exchange"|"takepung"|null, pending: string|null, selected: number, selectedTiles: () => string[], toggleMode: (mode: "ting"|"takepung") => void}} o
 * @returns {Button[]}
 */
export function actionButtons(o) {
  const legal = o.legal;
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
    else if (verb === "win") add(verb, { label: t("a_win"), key: "h", cls: "win", action: a });
    else if (verb === "sanjindao") add(verb, { label: t("a_sanjindao"), key: "h", cls: "win", action: a });
    else if (verb === "qiangjin") add(verb, { label: t("a_qiangjin"), key: "h", cls: "win", options: [{ action: a, tiles }] });
    else if (verb === "peng") add(verb, { label: t("a_peng"), key: "p", action: a });
    else if (verb === "minggang" || verb === "angang" || verb === "jiagang") {
      const shown = tiles.length ? [tiles[0], tiles[0], tiles[0], tiles[0]] : o.pending ? Array(4).fill(o.pending) : [];
      add("gang", { label: t("a_gang"), key: "k", options: [{ action: a, tiles: shown }] });
    } else if (verb === "chi") add(verb, { label: t("a_chi"), key: "c", options: [{ action: a, tiles }] });
    else if (verb === "ting") add(verb, { label: t("a_ting"), key: "t", cls: o.mode === "ting" ? "on" : "", run: () => o.toggleMode("ting") });
    else if (verb === "give") {
      // the tiles given up one at a time: chosen here as a whole (exchange mode, or the pung offer)
      if (o.mode !== "exchange") add("takepung", { label: t("a_takepung"), key: "x", cls: o.mode === "takepung" ? "on" : "", run: () => o.toggleMode("takepung") });
    }
    else if (verb === "discardgold") add(verb, { label: t("a_discardgold"), key: "d", action: a });
    else if (verb === "pick") add(verb, { label: t("a_pick"), key: "g", options: [{ action: a, tiles }] });
    else if (verb === "exchange") continue;
    else if (verb === "pass") add(verb, { label: t("a_pass"), key: " ", cls: "pass", action: a });
    else add(verb, { label: verb, key: "", action: a });
  }
  const out = [...groups.entries()].sort((a, b) => VERB_ORDER.indexOf(a[0]) - VERB_ORDER.indexOf(b[0])).map((e) => e[1]);
  if (o.mode === "exchange" && legal.length) {
    const n = o.selected;
    out.unshift({ label: n ? `${t("a_exchange")} ${n}` : t("no_exchange"), key: "Enter", cls: "win", action: n ? `exchange:${formatTiles(o.selectedTiles())}` : "exchange" });
  }
  if (o.mode === "takepung" && o.selected === 3) {
    out.unshift({ label: `${t("confirm")} ${t("a_takepung")}`, key: "Enter", cls: "win", action: `takepung:${formatTiles(o.selectedTiles())}` });
  }
  return out;
}

/**
 * The moves a multi-tile answer is sent as, one message each: `exchange:TILES` gives up each
 * tile (`give:X`, in canonical order) then ends with `exchange`; `takepung:TILES` is its three
 * `give:X`.  Any other action is sent as it is.
 * @param {string} action @returns {string[]}
 */
export function stepsOf(action) {
  const [verb, arg] = action.split(":");
  if ((verb !== "exchange" && verb !== "takepung") || !arg) return [action];
  const gives = sortTiles(parseTiles(arg)).map((x) => `give:${x}`);
  return verb === "exchange" ? [...gives, "exchange"] : gives;
}
