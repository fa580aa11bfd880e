// Reading a hand's events: the line about the latest move, and whether a move shows among them.

import { getLang, t } from "./i18n.js";
import { tileName } from "./tiles.js";

/** @typedef {import("./table.js").GameEvent} GameEvent */

/**
 * A line about the latest move ("对手 打出 五万").
 * @param {GameEvent[]} events @param {number} seat @param {string[]} names @returns {string}
 */
export function describeLast(events, seat, names) {
  const lang = getLang();
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const ev = events[i];
    const key = `e_${ev.kind === "angang" || ev.kind === "jiagang" || ev.kind === "minggang" ? "gang" : ev.kind}`;
    if (!["e_discard", "e_ting", "e_chi", "e_peng", "e_gang", "e_flower", "e_you", "e_timeout", "e_trustee"].includes(key)) continue;
    if (typeof ev.player !== "number" || ev.player < 0) continue;
    const who = ev.player === seat ? t("you") : names[ev.player] || t("opponent");
    const tile = ev.tile ? ` ${tileName(ev.tile, lang)}` : ev.tiles ? ` ${ev.tiles.map((x) => tileName(x, lang)).join(" ")}` : "";
    return t(key, who, ev.text || "") + tile;
  }
  return "";
}

/**
 * Whether an event is this seat's own (not automatic) play of `action`: a discard or 听 of the
 * same tile, or a claim of the same kind.
 * @param {GameEvent} ev @param {string} action @param {number} seat @returns {boolean}
 */
export function isMove(ev, action, seat) {
  if (ev.player !== seat || ev.auto) return false;
  const [verb, arg] = action.split(":");
  if (verb === "discard" || verb === "ting") return ev.kind === verb && ev.tile === arg;
  return ev.kind === verb;
}
