// Each family's part of the client lives in the family's own package (erren/families/<name>/
// web/family.js): its names, the tiles it marks (a gold, a 财神), its seat tags and table
// indicators, the tiles given up in a choice under way, its win types and settlement lines,
// what an escape costs, the buttons of its own moves and the words of its own events (the
// sentences' rows stay in i18n.js).  The server serves each module and lists them (`GET /families`,
// `modules`); `loadFamilies` imports them once at start and the shared code asks
// `familyClient(id)`: it never names a family.  A family without a module (or one the page
// could not load) gets the shared defaults: its id as its name, no marks, no extra lines.

import { api } from "./api.js";
import { getLang, t } from "./i18n.js";
import { tileName } from "./tiles.js";

/** @typedef {import("./schema.js").FamilyView} FamilyView */
/** An event of a table (the engine's, or the table's own). @typedef {import("./table.js").GameEvent} GameEvent */
/** A text in Chinese and English. @typedef {{zh: string, en: string}} Both */

/**
 * A tile the family marks wherever it shows (board, prompt, settlement): its badge, the i18n
 * key of what it is (said with the tile's name), and whether it is a wild (drawn first in the
 * hand).  Earlier marks win over later ones for the same tile.
 * @typedef {{tile: string, badge: Both, name: string, wild: boolean}} TileMark
 */

/**
 * A piece of an indicator at the centre of the table: an i18n key (its text) or a tile.
 * @typedef {{text: string}|{tile: string, size: "s"|"xs", badge?: Both}} IndicatorPart
 */

/** A badge on a seat's bar (its class and its text). @typedef {{cls: string, text: string}} SeatTag */

/**
 * What the family is shown of a table besides the observation's view: the events so far (a
 * replay: every frame's), the seat looking and his legal moves (none in a replay).
 * @typedef {{events: GameEvent[], seat: number, legal: string[]}} TableContext
 */

/**
 * A win as the settlement shows it: how it was won, its sum (fan or 水) and points, the
 * table's options and dealer streak, and the scoring names the server gives
 * (`/web/names.json`).
 * @typedef {{how: string, total: number, points: number, options: Record<string, any>, streak: number, names: Record<string, any>}} WinContext
 */

/**
 * A move of the family's own (its verb on the wire) as a button: the i18n key of its name, its
 * shortcut key, its class, whether its tiles are offered as a choice, and its place among the
 * shared buttons (hu 0, zimo 1, gang 5, peng 6, chi 7, ting 8, takepung 9, pass 12).
 * @typedef {{label: string, key: string, cls?: string, tiles?: boolean, place: number}} VerbButton
 */

/**
 * An event kind of the family's own: the second argument of its sentence (`e_<kind>` in
 * i18n.js) from its data, whether the line about the latest move speaks of it, and whether a
 * screen reader is told it as it comes (announce.js).
 * @typedef {{detail?: (ev: import("./schema.js").EngineEvent) => string, latest?: boolean, said?: boolean}} EventWords
 */

/** What a family module is given: the strings, the language and the tiles' names.
 * @typedef {{t: (key: string, ...args: any[]) => string, lang: () => "zh"|"en", tileName: (tile: string, lang: "zh"|"en") => string}} Kit */

/**
 * The client hooks of a family; every hook is optional (the shared default in brackets).
 * @typedef {{
 *   id: string,
 *   name: Both,
 *   blurb?: Both,
 *   marks?: (view: FamilyView, ctx: TableContext) => TileMark[],
 *   indicators?: (view: FamilyView, ctx: TableContext) => IndicatorPart[][],
 *   seatTags?: (view: FamilyView, seat: number) => SeatTag[],
 *   openingTile?: (view: FamilyView) => string|null,
 *   offer?: (view: FamilyView, ctx: TableContext) => string|null,
 *   giving?: (view: FamilyView) => string[],
 *   escapePoints?: (options: Record<string, any>) => number,
 *   winType?: (how: string, names: Record<string, any>) => string|null,
 *   formula?: (win: WinContext) => string|null,
 *   fanTable?: (options: Record<string, any>) => string|null,
 *   verbs?: Record<string, VerbButton>,
 *   events?: Record<string, EventWords>,
 * }} FamilyClient
 * - `name`, `blurb`: the family's name and the lobby tab's line (`name`: its id);
 * - `marks`: the tiles it marks, from the view (none);
 * - `indicators`: what the centre of the table shows, each a row of text and tiles (none);
 * - `seatTags`: badges on a seat's bar (none);
 * - `openingTile`: the tile a win at the opening is about, for its prompt (none);
 * - `offer`: the tile offered to the seat for a pung he answers by giving tiles up (none);
 * - `giving`: the tiles the seat has given up so far in such a choice (none);
 * - `escapePoints`: the points an escape costs where the server says none (13);
 * - `winType`: the name of how a hand was won (the shared `how_*` words);
 * - `formula`: a line under the score of a win (none);
 * - `fanTable`: the fan table the rules links of a settlement open (the default table);
 * - `verbs`, `events`: its own moves' buttons and its own events' words, by their wire names
 *   (unique among all families: the engine refuses a name twice).
 */

/** A family module: its default export builds the family's hooks. @typedef {{default: (kit: Kit) => FamilyClient}} FamilyModule */

/** @type {Map<string, FamilyClient>} */
const REGISTRY = new Map();
/** The families in the order people read them (the server's `modules`). @type {string[]} */
let ORDER = [];

/** The kit every family module is built with. @type {Kit} */
const KIT = { t, lang: getLang, tileName };

/** Add a family's hooks (a module, or a test's own). @param {FamilyClient} client */
export function registerFamily(client) {
  REGISTRY.set(client.id, client);
  if (!ORDER.includes(client.id)) ORDER.push(client.id);
}

/** The hooks of family `id`: its module's, else the shared defaults.
 * @param {string} id @returns {FamilyClient} */
export function familyClient(id) {
  return REGISTRY.get(id) || { id, name: { zh: id, en: id } };
}

/** The families the server listed, in the order people read them. @returns {string[]} */
export function familyIds() {
  return [...ORDER];
}

/** A family's name in the player's language (its id when it has no module). @param {string} id @returns {string} */
export function familyName(id) {
  const name = familyClient(id).name;
  return getLang() === "zh" ? name.zh : name.en;
}

/** The lobby tab's line of a family ("" without one). @param {string} id @returns {string} */
export function familyBlurb(id) {
  const blurb = familyClient(id).blurb;
  return blurb ? (getLang() === "zh" ? blurb.zh : blurb.en) : "";
}

/** The button of a family's own move, whichever family it is (wire names are unique).
 * @param {string} verb @returns {VerbButton|null} */
export function familyVerb(verb) {
  for (const client of REGISTRY.values()) if (client.verbs && client.verbs[verb]) return client.verbs[verb];
  return null;
}

/** The words of a family's own event kind, whichever family it is (wire names are unique).
 * @param {string} kind @returns {EventWords|null} */
export function familyEvent(kind) {
  for (const client of REGISTRY.values()) if (client.events && client.events[kind]) return client.events[kind];
  return null;
}

/** The mark of a tile among a family's marks, if it has one. @param {TileMark[]} marks @param {string} tile @returns {TileMark|null} */
export function markOf(marks, tile) {
  return marks.find((m) => m.tile === tile) || null;
}

/** A mark's badge in the player's language. @param {TileMark|Both|null|undefined} mark @returns {string|undefined} */
export function badgeText(mark) {
  if (!mark) return undefined;
  const both = "badge" in mark ? mark.badge : mark;
  return getLang() === "zh" ? both.zh : both.en;
}

/**
 * Import the module of every family the server lists (`GET /families`, `modules`) and
 * register it; once per page.  A module that fails to load leaves its family on the defaults.
 * @returns {Promise<void>}
 */
export async function loadFamilies() {
  /** @type {{families: string[], modules?: Record<string, string>}} */
  const listing = await api("GET", "/families");
  const modules = listing.modules || {};
  const loaded = await Promise.all(
    Object.entries(modules).map(async ([id, url]) => {
      try {
        const mod = /** @type {FamilyModule} */ (await import(url));
        return { ...mod.default(KIT), id };
      } catch {
        return null;
      }
    }),
  );
  for (const client of loaded) if (client) registerFamily(client);
  ORDER = [...Object.keys(modules), ...listing.families.filter((f) => !(f in modules))];
}
