// xiamen's part of the browser client (erren/web/js/families.js): the gold and the White that
// plays as it (R-1.8), the gold at the centre of the table, each seat's 游 level, its own moves
// (三金倒, 抢金, the 游 chain's win, 打金) and the 游 event, the win types with their
// multiplier and the 水 formula of a win (R-4.1), and the 400 points of an escape.

/** @typedef {import("../../../web/js/families.js").FamilyClient} FamilyClient */
/** @typedef {import("../../../web/js/families.js").FamilyView} FamilyView */
/** @typedef {import("../../../web/js/families.js").WinContext} WinContext */

/** The words of the 游 levels on a seat's bar (none, 游金, 双游, 三游; beyond: 游). */
const YOU_TAGS = ["", "游金", "双游", "三游"];
/** The win types a `how` stands for (the rest are named as they are). @type {Record<string, string>} */
const HOW_TYPE = { discard: "pinghu", robbing: "qianggang" };

/** The rows only xiamen uses (its marks, indicator and moves). @type {Record<string, [string, string]>} */
const WORDS = {
  gold: ["金", "Gold"],
  fake_gold: ["假金", "White as the gold's tile"],
  a_sanjindao: ["三金倒", "Three golds"],
  a_qiangjin: ["抢金", "Rob the gold"],
  a_win: ["游金胡", "Win (swimming gold)"],
  a_discardgold: ["打金", "Discard the gold"],
  // its own events' sentences, its settlement's formula and its refusals' words
  e_you: ["{0} 进入游金", "{0} is swimming on a gold"],
  e_gold: ["翻金", "The gold is"],
  s_formula: ["(底 {0} + 水 {1}) × {2}{3} = {4}", "(base {0} + water {1}) × {2}{3} = {4}"],
  "err_gold-in-meld": ["金牌不能用来吃碰杠", "A gold cannot go into a meld"],
  "err_dead-gold": ["打出的金牌不能吃碰，也不能胡", "A discarded gold can never be claimed"],
  "err_gold-holder-no-pinghu": ["手里有金牌时不能点和", "Holding a gold you cannot win on a discard"],
  "err_follow-discard": ["必须跟打对手刚打的那张牌", "You must follow the opponent's discard"],
  "err_no-heavenly-win": ["庄家起手成和算抢金胡", "The dealer's complete opening hand is Rob the gold"],
  "err_opening-closed": ["三金倒和抢金只能在开局时", "Three golds and Rob the gold exist only at the opening"],
  "err_not-three-golds": ["三金倒需要三张金牌", "Three golds needs all three golds"],
  "err_not-ready-for-gold": ["加上金牌还不能和牌", "The hand plus the gold is not complete"],
  "err_no-gold-choice": ["现在没有金牌可以选择", "There is no gold choice now"],
};

/** The gold kind of an observation's view, if revealed. @param {FamilyView} view @returns {string|null} */
function goldOf(view) {
  return view.family === "xiamen" ? view.gold : null;
}

/** A win type's row of the names the server gives (`/web/names.json`), if known.
 * @param {string} how @param {Record<string, any>} names
 * @returns {{zh: string, en: string, m: number, bonus: number}|null} */
function winTypeRow(how, names) {
  return (names.xiamen_win || {})[HOW_TYPE[how] || how] || null;
}

/** @param {import("../../../web/js/families.js").Kit} kit @returns {FamilyClient} */
export default function xiamen(kit) {
  return {
    id: "xiamen",
    name: { zh: "厦门麻将", en: "Xiamen" },
    blurb: { zh: "金牌百搭、游金、水数计分", en: "Wild golds, swimming-gold chains, scored in water" },
    marks(view) {
      const gold = goldOf(view);
      if (!gold) return [];
      const marks = [{ tile: gold, badge: { zh: "金", en: "G" }, name: "gold", wild: true }];
      // R-1.8: a White plays as the gold kind's natural tile (假金), unless White is the gold
      if (gold !== "5z") marks.push({ tile: "5z", badge: { zh: "假", en: "=G" }, name: "fake_gold", wild: false });
      return marks;
    },
    indicators(view) {
      const gold = goldOf(view);
      return gold ? [[{ text: "gold" }, { tile: gold, size: "s", badge: { zh: "金", en: "G" } }]] : [];
    },
    seatTags(view, seat) {
      const level = view.family === "xiamen" ? view.you_level[seat] : 0;
      return level ? [{ cls: "badge-you", text: YOU_TAGS[level] || "游" }] : [];
    },
    openingTile: goldOf,
    escapePoints: () => 400,
    winType(how, names) {
      const row = winTypeRow(how, names);
      if (!row) return null;
      return `${kit.lang() === "zh" ? row.zh : row.en} (×${row.m}${row.bonus ? ` +${row.bonus}` : ""})`;
    },
    formula: (win) => formula(kit, win),
    verbs: {
      win: { label: "a_win", key: "h", cls: "win", place: 2 },
      sanjindao: { label: "a_sanjindao", key: "h", cls: "win", place: 3 },
      qiangjin: { label: "a_qiangjin", key: "h", cls: "win", tiles: true, place: 4 },
      discardgold: { label: "a_discardgold", key: "d", place: 10, throws: true },
    },
    events: { you: { latest: true, said: true }, gold: { said: true } },
    words: WORDS,
  };
}

/** R-4.1: (底 + 水) × M, capped, + bonus; the points alone when they do not add up so.
 * @param {import("../../../web/js/families.js").Kit} kit @param {WinContext} win @returns {string|null} */
function formula(kit, win) {
  const row = winTypeRow(win.how, win.names);
  if (!row) return "";
  const base = Number(win.options.base ?? 8) * 2 ** win.streak;
  const cap = Number(win.options.cap ?? 100);
  let raw = (base + win.total) * row.m;
  const capped = cap > 0 && raw > cap;
  if (capped) raw = cap;
  const bonus = row.bonus ? ` ${capped ? `→ ${cap}` : ""} + ${row.bonus}` : capped ? ` → ${cap}` : "";
  const total = raw + (row.bonus || 0);
  if (total !== win.points) return kit.t("s_points") + ` ${win.points}`;
  return kit.t("s_formula", base, win.total, row.m, bonus, win.points);
}
