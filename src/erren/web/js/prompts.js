// What the player is asked to do now, with the tiles it is about: the tile on offer in a claim
// window, the tile drawn in a window after a draw, the tile a win at the opening is about (the
// family's `openingTile`), a selection mode's own prompt, a family's own prompt (its `prompt`
// hook).  A decision whose only move is pass is no decision (the table
// passes it, table.js `legal`): no prompt.  While 托管 plays for him, the prompt says so and why.

import { badgeText, familyClient, markOf, selectionMode } from "./families.js";
import { h } from "./dom.js";
import { trusteeReason } from "./events.js";
import { getLang, t } from "./i18n.js";
import { tileEl, tileName } from "./tiles.js";

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {import("./board.js").Obs} Obs */

/**
 * A prompt: the words, the tiles it is about (drawn after them), then the choices.
 * @typedef {{text: string, tiles: string[], choices?: string}} Prompt
 */

/** The verbs a claim window offers on the opponent's tile (the pass aside). */
const CLAIMS = new Set(["hu", "peng", "chi", "minggang"]);

/** The prompt of the player's own seat now, or null (nothing to decide, the hand is over).
 * @param {TableView} tv @returns {Prompt|null} */
export function promptOf(tv) {
  const st = tv.state;
  if (!st || tv.end) return null;
  if (st.trustee[tv.seat] && !tv.legal().length) return trusteePrompt(tv);
  if (st.to_act !== tv.seat) return st.to_act === null ? null : { text: t("their_turn"), tiles: [] };
  if (tv.mode === "ting") return { text: t("ting_pick"), tiles: [] };
  const offer = tv.view().offer || null;
  const mode = selectionMode(tv.mode);
  if (mode) return mode.prompt(tv.givenSoFar(), offer, offer ? tileName(offer, getLang()) : "");
  const legal = tv.legal();
  const own = familyClient(tv.info ? tv.info.family : "").prompt;
  const asked = own ? own(st, { offer, legal }) : null;
  if (asked) return asked;
  if (!legal.length) return null; // pass-only (the table passes it) or a move on its way
  if (legal.some((a) => a.startsWith("discard:"))) return { text: t("your_turn"), tiles: [] };
  return choicePrompt(tv, st, legal);
}

/** A window with a choice: the claim of the tile on offer, a win on the tile just drawn, or a
 * win at the opening (xiamen's 三金倒/抢金, about the gold).
 * @param {TableView} tv @param {Obs} st @param {string[]} legal @returns {Prompt} */
function choicePrompt(tv, st, legal) {
  if (st.pending && legal.some((a) => CLAIMS.has(a.split(":")[0]))) return { text: t("your_claim"), tiles: [st.pending] };
  const labels = tv
    .buttons()
    .filter((b) => b.key !== " ")
    .map((b) => b.label)
    .join(" / ");
  if (st.last_drawn) return { text: t("drawn_win", labels), tiles: [st.last_drawn] };
  const about = familyClient(tv.info ? tv.info.family : "").openingTile;
  const tile = about ? about(st.view) : null;
  return { text: t("opening_win", labels), tiles: tile ? [tile] : [] };
}

/** 托管 plays for the player: say so, why (his timeouts, or himself / a lost connection) and
 * how to take over. @param {TableView} tv @returns {Prompt} */
function trusteePrompt(tv) {
  const why = trusteeReason(tv.events, tv.seat);
  return { text: trusteeText(why, tv.info ? tv.info.options.auto_trustee_after : undefined), tiles: [] };
}

/** The sentence of 托管 switched on, by why: `timeouts` (the rule's consecutive timeouts, `n`
 * of them) or `other` (the player, or a timeout while he was away).
 * @param {"timeouts"|"other"} why @param {unknown} n @returns {string} */
export function trusteeText(why, n) {
  if (why === "timeouts") return typeof n === "number" ? t("trustee_timeouts", n) : t("trustee_timeouts_any");
  return t("trustee_is_on");
}

/** The prompt as drawn: its words, its tiles (a wild marked as on the board), its choices.
 * @param {Prompt} p @param {(tile: string) => string|undefined} badge @returns {HTMLElement} */
export function promptEl(p, badge) {
  const lang = getLang();
  const tiles = p.tiles.length ? h("span.prompt-tiles", null, ...p.tiles.map((x) => tileEl(x, { size: "s", lang, badge: badge(x) }))) : null;
  return h("div.prompt", null, h("span.prompt-text", null, p.text), tiles, p.choices ? h("span.prompt-choices", null, p.choices) : null);
}

/** The player's prompt as the board draws it (in his seat, above his buttons), or null.
 * @param {TableView} tv @returns {HTMLElement|null} */
export function promptNode(tv) {
  const p = promptOf(tv);
  if (!p || !tv.state) return null;
  const marks = tv.view().marks;
  return promptEl(p, (x) => badgeText(markOf(marks, x)));
}
