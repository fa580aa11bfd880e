// Each family's part of the client lives in the family's own package (erren/families/<name>/
// web/family.js): its names, the tiles it marks (a gold, a 财神), its seat tags and table
// indicators, the tiles given up in a choice under way, its win types and settlement lines,
// what an escape costs, the buttons of its own moves and the words of its own events (the
// sentences' rows stay in i18n.js), the choices of several tiles its moves make (selection
// modes), its own prompts, screens, lobby cards and table kinds, and the words only it uses.
// The server serves each module and lists them (`GET /families`,
// `modules`); `loadFamilies` imports them once at start and the shared code asks
// `familyClient(id)`: it never names a family.  A family without a module (or one the page
// could not load) gets the shared defaults: its id as its name, no marks, no extra lines.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { addWords, amount, change, computerName, failure, getLang, nameTableKind, t } from "./i18n.js";
import { tileKey } from "./notation.js";
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
 * shortcut key, its class, whether its tiles are offered as a choice, its place among the
 * shared buttons (hu 0, zimo 1, gang 5, peng 6, chi 7, ting 8, pass 12), and whether it throws
 * the tile it names (as a discard does: the quick review shows it thrown).
 * @typedef {{label: string, key: string, cls?: string, tiles?: boolean, place: number, throws?: boolean}} VerbButton
 */

/**
 * An event kind of the family's own: the second argument of its sentence (`e_<kind>` in
 * i18n.js) from its data, whether the line about the latest move speaks of it, and whether a
 * screen reader is told it as it comes (announce.js).
 * @typedef {{detail?: (ev: import("./schema.js").EngineEvent) => string, latest?: boolean, said?: boolean}} EventWords
 */

/** What a family module is given (it imports nothing of the shared client at run time: its
 * files are served elsewhere): the strings, the language, the tiles' names and canonical
 * order, and for its screens the server's API, the DOM helper, toasts and the figures' words.
 * @typedef {{
 *   t: (key: string, ...args: any[]) => string,
 *   lang: () => "zh"|"en",
 *   tileName: (tile: string, lang: "zh"|"en") => string,
 *   tileKey: (tile: string) => number,
 *   api: typeof api,
 *   h: typeof h,
 *   toast: typeof toast,
 *   amount: (n: number) => string,
 *   change: (n: number) => string,
 *   computerName: (level: string) => string,
 *   failure: (e: unknown) => string,
 * }} Kit */

/** The board's observation (board.js). @typedef {import("./board.js").Obs} Obs */

/**
 * A choice of several tiles at once that a family's moves make (an opening exchange, an answer
 * to a pung offered): the player picks tiles on his hand and confirms; the answer is
 * sent as the mode says.  The shared table drives any mode it is given:
 * - `mode`: its name (the table's `mode`, and the verb of its confirmed answer `<mode>:TILES`);
 * - `holds`: whether the state holds the seat in it (asked only while he is to act with moves;
 *   `given` are the tiles given so far: the family's `giving`);
 * - `stays`: while true the mode is kept across turns and Escape does not close it (none);
 * - `opener`: the legal verb whose button opens it, while no tile is given (none);
 * - `verbs`: the legal verbs that belong to the choice and get no button of their own;
 * - `room`: how many tiles may be picked now (any);
 * - `confirm`: the confirm button's label and verb (the mode's name: the answer is sent as
 *   `<mode>:PICKED`, or `<mode>` alone with none picked) for the tiles given and picked, or null;
 * - `steps`: the messages an answer `<mode>:TILES` is sent as, one at a time, from its tiles in
 *   canonical order;
 * - `prompt`: what the player is asked (the offered tile's name, "" without one) and the tiles
 *   shown with it;
 * - `words`: the i18n key of each of its verbs' names (a move kept while the connection is lost).
 * Tiles are given in canonical order: a tile below the last one given cannot be picked.
 * @typedef {{
 *   mode: string,
 *   holds: (st: Obs, given: string[]) => boolean,
 *   stays?: (st: Obs) => boolean,
 *   opener?: {verb: string, label: string, key: string, place: number},
 *   verbs: string[],
 *   room?: (given: string[]) => number,
 *   confirm: (given: string[], picked: string[]) => {label: string, verb: string}|null,
 *   steps: (tiles: string[]) => string[],
 *   prompt: (given: string[], offer: string|null, offerName: string) => {text: string, tiles: string[]},
 *   words?: Record<string, string>,
 * }} SelectionMode
 */

/** A prompt (prompts.js): the words, the tiles it is about, then the choices.
 * @typedef {{text: string, tiles: string[], choices?: string}} FamilyPrompt */

/**
 * A screen of the family's own at `#/<route>`: drawn into `root`; `nav.current()`
 * is false once the player went elsewhere (draw nothing then), `nav.toTable(id)` sits him at a table.
 * @typedef {{current: () => boolean, toTable: (id: string) => void}} ScreenNav
 * @typedef {(root: HTMLElement, nav: ScreenNav) => Promise<void>} FamilyScreen
 */

/**
 * A kind of table the family runs itself (the table's `kind`): the
 * i18n key of what leaving a running hand costs, the address its settlement's next button
 * goes back to, and the i18n key of its name (a game list's "where").
 * @typedef {{leave: string, back: string, name: string}} TableKind
 */

/**
 * The family's own part of a settlement (its kind of table's figures), when the settlement event
 * carries it: the element drawn under the scores, whether the amounts are left out, whether the
 * opponent's scoring rows are left out, and the i18n key of its next button.
 * @typedef {{el: HTMLElement, amounts: boolean, opponentRows: boolean, next: string}} SettlePart
 */

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
 *   modes?: SelectionMode[],
 *   prompt?: (st: Obs, ctx: {offer: string|null, legal: string[]}) => FamilyPrompt|null,
 *   screens?: Record<string, FamilyScreen>,
 *   cards?: () => HTMLElement[],
 *   tables?: Record<string, TableKind>,
 *   settlement?: (end: any) => SettlePart|null,
 *   words?: Record<string, [string, string]>,
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
 *   (unique among all families: the engine refuses a name twice);
 * - `modes`: its choices of several tiles (none);
 * - `prompt`: its own prompt for a decision, asked before the shared ones once no mode is
 *   open (none);
 * - `screens`: its own screens by their route (`#/<route>`; none), `cards`: its cards in the
 *   lobby, under the shared ones (none);
 * - `tables`: its own kinds of table (none), `settlement`: its part of a settlement (none);
 * - `words`: the i18n rows only it uses (`[zh, en]` by key), added at load (none).
 */

/** A family module: its default export builds the family's hooks. @typedef {{default: (kit: Kit) => FamilyClient}} FamilyModule */

/** @type {Map<string, FamilyClient>} */
const REGISTRY = new Map();
/** The families in the order people read them (the server's `modules`). @type {string[]} */
let ORDER = [];

/** The kit every family module is built with. @type {Kit} */
const KIT = { t, lang: getLang, tileName, tileKey, api, h, toast, amount, change, computerName, failure };

/** Add a family's hooks (a module, or a test's own). @param {FamilyClient} client */
export function registerFamily(client) {
  REGISTRY.set(client.id, client);
  if (client.words) addWords(client.words);
  for (const [kind, about] of Object.entries(client.tables || {})) nameTableKind(kind, about.name);
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

/** Every family's hooks, in the order the server listed them. @returns {FamilyClient[]} */
function clients() {
  return [...REGISTRY.values()];
}

/** The selection mode named `mode`, whichever family it is (modes are named by their verbs,
 * unique among all families). @param {string|null} mode @returns {SelectionMode|null} */
export function selectionMode(mode) {
  if (!mode) return null;
  for (const client of clients()) for (const m of client.modes || []) if (m.mode === mode) return m;
  return null;
}

/** Every family's selection modes. @returns {SelectionMode[]} */
export function selectionModes() {
  return clients().flatMap((client) => client.modes || []);
}

/** A family's own screen at route `name`, if one has it. @param {string} name @returns {FamilyScreen|null} */
export function familyScreen(name) {
  for (const client of clients()) if (client.screens && client.screens[name]) return client.screens[name];
  return null;
}

/** Every family's lobby cards, in the families' order. @returns {HTMLElement[]} */
export function familyCards() {
  return familyIds().flatMap((id) => {
    const cards = familyClient(id).cards;
    return cards ? cards() : [];
  });
}

/** A family's own kind of table, if one has it. @param {string|null|undefined} kind @returns {TableKind|null} */
export function tableKind(kind) {
  if (!kind) return null;
  for (const client of clients()) if (client.tables && client.tables[kind]) return client.tables[kind];
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
