// What the player sees while the connection is lost: the full-table overlay (it takes every
// click until the table is resynced), the move he made just before, and the notice when another
// tab of his account took the seat over.

import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { parseTiles } from "./notation.js";
import { tileName } from "./tiles.js";
import { familyVerb } from "./families.js";
import { modeWord } from "./selection.js";

/** @type {Record<string, string>} a shared action's verb → the i18n key of its name (a family's
 * own: its verbs' buttons and its selection modes' words) */
const VERB_KEY = { discard: "m_discard", ting: "a_ting", hu: "a_hu", zimo: "a_zimo", peng: "a_peng", chi: "a_chi", minggang: "a_gang", angang: "a_gang", jiagang: "a_gang", pass: "a_pass" };

/** A move in words: "discard:5m" → "打出 五万". @param {string} action @returns {string} */
export function moveLabel(action) {
  const [verb, arg] = action.split(":");
  const lang = getLang();
  const tiles = arg ? parseTiles(arg).map((x) => tileName(x, lang)).join(" ") : "";
  const key = VERB_KEY[verb] || modeWord(verb) || familyVerb(verb)?.label;
  return `${key ? t(key) : verb}${tiles ? " " + tiles : ""}`;
}

/**
 * The overlay over the table: "connection lost, reconnecting", "the table is moving to another
 * server" (a cluster node lost it: the client joins again, rejoin.js), or "catching up" once the
 * socket is back and the missed events are on their way; and the move kept for after the resync.
 * @param {boolean} lost @param {string|null} move the kept move in words
 * @param {boolean} [moving] the table moved and is joined again @returns {HTMLElement}
 */
export function overlayEl(lost, move, moving = false) {
  const state = lost ? "lost" : moving ? "moving" : "syncing";
  const title = { lost: t("conn_lost"), moving: t("conn_moving"), syncing: t("conn_resync") }[state];
  return h(
    "div.conn-overlay",
    { role: "alert", "aria-live": "assertive", dataset: { state } },
    h("div.conn-card", null,
      h("div.spinner"),
      h("p.conn-title", null, title),
      move ? h("p.conn-move", null, t("move_kept", move)) : null,
    ),
  );
}

/** Another tab of this account took the seat: this one no longer connects.
 * @param {() => void} toLobby @returns {HTMLElement} */
export function replacedEl(toLobby) {
  return h("div.panel.replaced", { role: "alert" },
    h("h2", null, t("replaced")),
    h("p", null, t("replaced_d")),
    h("div.row", null,
      h("button.primary#btn-here", { type: "button", onclick: () => location.reload() }, t("replaced_here")),
      h("button", { type: "button", onclick: toLobby }, t("back_lobby")),
    ),
  );
}
