// Reading a hand's events: sentences rendered from each event's kind and data (schema.js),
// the line about the latest move, and whether a move shows among them. No prose is parsed.

import { getLang, t } from "./i18n.js";
import { tileName } from "./tiles.js";
import { familyEvent } from "./families.js";

/** @typedef {import("./table.js").GameEvent} GameEvent */
/** @typedef {import("./schema.js").EngineEvent} EngineEvent */

/** The kinds the line about the latest move speaks of (and a family's own that say so). */
const LATEST = new Set(["discard", "ting", "chi", "peng", "minggang", "angang", "jiagang", "flower", "timeout", "trustee"]);

/** The i18n key of an event kind (the three kongs share one). @param {string} kind @returns {string} */
export function eventKey(kind) {
  return `e_${kind === "angang" || kind === "jiagang" || kind === "minggang" ? "gang" : kind.replace("-", "_")}`;
}

/** The data of an event as the second argument of its sentence. @param {EngineEvent} ev @returns {string} */
function detail(ev) {
  switch (ev.kind) {
    case "trustee":
      return t(ev.data.on ? "e_on" : "e_off");
    case "shuffle":
      return String(ev.data.count);
    case "dice":
      return ev.data.dice.join(", ");
    default: {
      const own = familyEvent(ev.kind);
      return own && own.detail ? own.detail(ev) : "";
    }
  }
}

/**
 * One sentence about an engine event ("对手 打出 五万").
 * @param {EngineEvent} ev @param {number} seat the viewer @param {string[]} names @returns {string}
 */
export function describeEvent(ev, seat, names) {
  const lang = getLang();
  const who = ev.player < 0 ? "" : ev.player === seat ? t("you") : names[ev.player] || t("opponent");
  const tile = ev.tile ? ` ${tileName(ev.tile, lang)}` : ev.tiles ? ` ${ev.tiles.map((x) => tileName(x, lang)).join(" ")}` : "";
  return t(eventKey(ev.kind), who, detail(ev)).trim() + tile;
}

/** Whether an event is the engine's (not the table's start or settlement). @param {GameEvent} ev @returns {ev is EngineEvent} */
export function isEngineEvent(ev) {
  return ev.kind !== "start" && ev.kind !== "settlement";
}

/**
 * A line about the latest move ("对手 打出 五万").
 * @param {GameEvent[]} events @param {number} seat @param {string[]} names @returns {string}
 */
export function describeLast(events, seat, names) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const ev = events[i];
    if (!isEngineEvent(ev) || !(LATEST.has(ev.kind) || familyEvent(ev.kind)?.latest) || ev.player < 0) continue;
    return describeEvent(ev, seat, names);
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

/**
 * Why 托管 plays for `seat`, from its last switch on: `timeouts` when the engine switched it on
 * after the rule's consecutive timeouts (an automatic event), `other` when the player did, or
 * the table did because his time ran out while he was away.
 * @param {GameEvent[]} events @param {number} seat @returns {"timeouts"|"other"}
 */
export function trusteeReason(events, seat) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const ev = events[i];
    if (ev.kind === "trustee" && ev.player === seat && ev.data.on) return ev.auto ? "timeouts" : "other";
  }
  return "other";
}
