// Tiles in the shared notation (docs: /work/shared/spec/NOTATION.md): "5m", "7z", "3f".
// Parses hands like "13m33z [23'4m] [7777m#] +2m" into tiles and melds for display.

/** @typedef {{kind: string, tiles: string[], claimed: number}} ParsedMeld */
/** @typedef {{concealed: string[], flowers: string[], melds: ParsedMeld[], win: string|null}} ParsedHand */

const SUIT_ORDER = "mpszf";

/** Sort key of a tile code. @param {string} t @returns {number} */
export function tileKey(t) {
  return SUIT_ORDER.indexOf(t.charAt(1)) * 10 + Number(t.charAt(0));
}

/** @param {string[]} tiles @returns {string[]} a sorted copy */
export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileKey(a) - tileKey(b));
}

/** "123m55z" → ["1m","2m","3m","5z","5z"]. @param {string} text @returns {string[]} */
export function parseTiles(text) {
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  let digits = [];
  for (const ch of text) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if (SUIT_ORDER.includes(ch)) {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

/** ["1m","4m","9p"] → "14m9p" (sorted). @param {string[]} tiles @returns {string} */
export function formatTiles(tiles) {
  let out = "";
  let run = "";
  let suit = "";
  for (const t of sortTiles(tiles)) {
    if (suit && t.charAt(1) !== suit) {
      out += run + suit;
      run = "";
    }
    suit = t.charAt(1);
    run += t.charAt(0);
  }
  return suit ? out + run + suit : out;
}

/** One bracketed meld, e.g. "23'4m", "555z'", "7777m#", "78'm5z". @param {string} body @returns {ParsedMeld} */
export function parseMeld(body) {
  /** @type {string[]} */
  const tiles = [];
  /** @type {string[]} */
  let digits = [];
  let claimed = -1;
  let mark = -1;
  for (const ch of body) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if (ch === "'") mark = tiles.length + digits.length - 1;
    else if (SUIT_ORDER.includes(ch)) {
      for (const d of digits) tiles.push(d + ch);
      digits = [];
    }
  }
  if (mark >= 0) claimed = Math.min(mark, tiles.length - 1);
  let kind = "chi";
  if (tiles.length === 4) kind = body.includes("#") ? "an_gang" : body.includes("+") ? "jia_gang" : "ming_gang";
  else if (tiles.length === 3 && tiles[0] === tiles[1] && tiles[1] === tiles[2]) kind = "peng";
  return { kind, tiles, claimed };
}

/** "13m33z [23'4m] +2m" → concealed tiles, flowers, melds, winning tile. @param {string} text @returns {ParsedHand} */
export function parseHand(text) {
  /** @type {ParsedMeld[]} */
  const melds = [];
  let rest = text.replace(/\[([^\]]*)\]/g, (_m, body) => {
    melds.push(parseMeld(String(body)));
    return " ";
  });
  /** @type {string|null} */
  let win = null;
  const plus = rest.indexOf("+");
  if (plus >= 0) {
    const w = parseTiles(rest.slice(plus + 1));
    win = w.length ? w[0] : null;
    rest = rest.slice(0, plus);
  }
  const all = parseTiles(rest);
  return {
    concealed: all.filter((t) => !t.endsWith("f")),
    flowers: all.filter((t) => t.endsWith("f")),
    melds,
    win,
  };
}

/** @param {string} t @returns {boolean} */
export const isHonor = (t) => t.endsWith("z");
/** @param {string} t @returns {boolean} */
export const isDragon = (t) => t.endsWith("z") && Number(t.charAt(0)) >= 5;
/** @param {string} t @returns {boolean} */
export const isWind = (t) => t.endsWith("z") && Number(t.charAt(0)) <= 4;
/** @param {string} t @returns {boolean} */
export const isTerminalOrHonor = (t) => isHonor(t) || t.charAt(0) === "1" || t.charAt(0) === "9";
