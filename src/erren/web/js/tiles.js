// Every tile face drawn as SVG by our own code: characters 一–九 with 萬, dots, bamboo, winds,
// dragons, flowers and the back. A tile is 60 × 80 units; CSS sets its size.

const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONORS = ["", "東", "南", "西", "北", "白", "發", "中"];
const HONOR_INDEX = ["", "E", "S", "W", "N", "", "", ""];
const FLOWERS = ["", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const BLUE = "#1d4f9c";
const GREEN = "#1f7a4a";
const RED = "#c62a22";
const INK = "#17203d";
const FONT = "'Noto Serif CJK SC','Source Han Serif SC','Noto Sans CJK SC','WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',serif";

/** @param {number} x @param {number} y @param {number} r @param {string} c @returns {string} */
function dot(x, y, r, c) {
  return (
    `<circle cx="${x}" cy="${y}" r="${r}" fill="${c}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.62}" fill="#fffdf6"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.32}" fill="${c}"/>`
  );
}

/** @type {Record<number, Array<[number, number, number, string]>>} */
const DOTS = {
  2: [[30, 24, 10, GREEN], [30, 56, 10, BLUE]],
  3: [[16, 18, 8.5, BLUE], [30, 40, 8.5, RED], [44, 62, 8.5, GREEN]],
  4: [[18, 23, 9, BLUE], [42, 23, 9, GREEN], [18, 57, 9, GREEN], [42, 57, 9, BLUE]],
  5: [[17, 19, 8, BLUE], [43, 19, 8, GREEN], [30, 40, 8, RED], [17, 61, 8, GREEN], [43, 61, 8, BLUE]],
  6: [[19, 17, 7.5, GREEN], [41, 17, 7.5, GREEN], [19, 40, 7.5, RED], [41, 40, 7.5, RED], [19, 63, 7.5, RED], [41, 63, 7.5, RED]],
  7: [[14, 14, 6.5, GREEN], [30, 21, 6.5, GREEN], [46, 28, 6.5, GREEN], [19, 47, 6.5, RED], [41, 47, 6.5, RED], [19, 65, 6.5, RED], [41, 65, 6.5, RED]],
  8: [[19, 14, 6.5, BLUE], [41, 14, 6.5, BLUE], [19, 31, 6.5, BLUE], [41, 31, 6.5, BLUE], [19, 48, 6.5, BLUE], [41, 48, 6.5, BLUE], [19, 65, 6.5, BLUE], [41, 65, 6.5, BLUE]],
  9: [[15, 17, 7, BLUE], [30, 17, 7, BLUE], [45, 17, 7, BLUE], [15, 40, 7, RED], [30, 40, 7, RED], [45, 40, 7, RED], [15, 63, 7, GREEN], [30, 63, 7, GREEN], [45, 63, 7, GREEN]],
};

/** @param {number} n @returns {string} */
function dots(n) {
  if (n === 1) {
    return (
      `<circle cx="30" cy="40" r="19" fill="${RED}"/><circle cx="30" cy="40" r="15" fill="#fffdf6"/>` +
      `<circle cx="30" cy="40" r="12" fill="${GREEN}"/><circle cx="30" cy="40" r="7" fill="#fffdf6"/>` +
      `<circle cx="30" cy="40" r="4" fill="${RED}"/>`
    );
  }
  return (DOTS[n] || []).map(([x, y, r, c]) => dot(x, y, r, c)).join("");
}

/** A bamboo stick centred at (x, y). @param {number} x @param {number} y @param {number} h @param {string} c @returns {string} */
function stick(x, y, h, c) {
  const top = y - h / 2;
  return (
    `<rect x="${x - 3.2}" y="${top}" width="6.4" height="${h}" rx="3" fill="${c}"/>` +
    `<rect x="${x - 4}" y="${y - 1.2}" width="8" height="2.4" rx="1.2" fill="${c}"/>` +
    `<line x1="${x}" y1="${top + 2}" x2="${x}" y2="${top + h - 2}" stroke="#fffdf6" stroke-width="1" opacity=".55"/>`
  );
}

/** @type {Record<number, Array<[number, number, string]>>} */
const STICKS = {
  2: [[30, 24, GREEN], [30, 56, GREEN]],
  3: [[30, 24, GREEN], [19, 56, GREEN], [41, 56, GREEN]],
  4: [[19, 24, GREEN], [41, 24, BLUE], [19, 56, BLUE], [41, 56, GREEN]],
  5: [[17, 24, GREEN], [43, 24, BLUE], [30, 40, RED], [17, 56, BLUE], [43, 56, GREEN]],
  6: [[16, 24, GREEN], [30, 24, GREEN], [44, 24, GREEN], [16, 56, BLUE], [30, 56, BLUE], [44, 56, BLUE]],
  7: [[30, 16, RED], [16, 40, GREEN], [30, 40, BLUE], [44, 40, GREEN], [16, 64, GREEN], [30, 64, BLUE], [44, 64, GREEN]],
  8: [[12, 24, GREEN], [24, 24, GREEN], [36, 24, GREEN], [48, 24, GREEN], [12, 56, BLUE], [24, 56, BLUE], [36, 56, BLUE], [48, 56, BLUE]],
  9: [[16, 16, GREEN], [30, 16, RED], [44, 16, BLUE], [16, 40, GREEN], [30, 40, RED], [44, 40, BLUE], [16, 64, GREEN], [30, 64, RED], [44, 64, BLUE]],
};

/** @param {number} n @returns {string} */
function bamboo(n) {
  if (n === 1) {
    // 幺鸡: a little bird on a stalk
    return (
      `<path d="M30 70 C30 58 31 52 33 46" stroke="${GREEN}" stroke-width="3" fill="none"/>` +
      `<ellipse cx="30" cy="38" rx="12" ry="10" fill="${GREEN}"/>` +
      `<path d="M19 36 L6 26 L10 40 L4 44 L18 44 Z" fill="${BLUE}"/>` +
      `<circle cx="40" cy="25" r="7" fill="${RED}"/><circle cx="42" cy="24" r="1.6" fill="#fffdf6"/>` +
      `<path d="M46 25 L53 27 L46 29 Z" fill="#d99a1e"/>` +
      `<path d="M26 33 q6 -6 12 0" stroke="#fffdf6" stroke-width="1.6" fill="none"/>`
    );
  }
  const h = n === 7 || n === 9 ? 19 : 25;
  return (STICKS[n] || []).map(([x, y, c]) => stick(x, y, h, c)).join("");
}

/** @param {string} s @param {number} x @param {number} y @param {number} size @param {string} c @returns {string} */
function glyph(s, x, y, size, c) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${c}" text-anchor="middle" font-family="${FONT}" font-weight="700">${s}</text>`;
}

/** @param {string} s @param {string} c @returns {string} */
function corner(s, c) {
  return s ? `<text x="6" y="14" font-size="11" fill="${c}" font-family="Arial,sans-serif" font-weight="700">${s}</text>` : "";
}

/** The face (without the body) of a tile. @param {string} code @returns {string} */
function face(code) {
  const n = Number(code.charAt(0));
  switch (code.charAt(1)) {
    case "m":
      return glyph(NUMERALS[n], 30, 35, 27, INK) + glyph("萬", 30, 70, 29, RED) + corner(String(n), INK);
    case "p":
      return dots(n);
    case "s":
      return bamboo(n);
    case "z":
      if (n === 5) {
        return `<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/><rect x="18" y="20" width="24" height="40" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.5"/>`;
      }
      if (n === 6) return glyph("發", 30, 54, 40, GREEN);
      if (n === 7) return glyph("中", 30, 55, 44, RED);
      return glyph(HONORS[n], 30, 55, 40, INK) + corner(HONOR_INDEX[n], INK);
    case "f": {
      const c = n <= 4 ? "#b5531b" : "#7a3d9c";
      return (
        `<circle cx="30" cy="48" r="15" fill="${c}" opacity=".14"/>` +
        glyph(FLOWERS[n], 30, 58, 32, c) +
        `<text x="50" y="18" font-size="12" fill="${c}" text-anchor="middle" font-family="Arial,sans-serif" font-weight="700">${n <= 4 ? n : n - 4}</text>`
      );
    }
    default:
      return "";
  }
}

const BODY =
  `<rect x="0.5" y="2" width="59" height="77.5" rx="7" fill="#c7b98a"/>` +
  `<rect x="0.5" y="0.5" width="59" height="75" rx="7" fill="#fffaf0" stroke="#cdbf93" stroke-width="1"/>`;

const BACK =
  `<rect x="0.5" y="2" width="59" height="77.5" rx="7" fill="#0f4a37"/>` +
  `<rect x="0.5" y="0.5" width="59" height="75" rx="7" fill="#1f7a5a"/>` +
  `<rect x="6" y="6" width="48" height="64" rx="5" fill="none" stroke="#8fd3b5" stroke-width="1.5" opacity=".7"/>` +
  `<path d="M30 18 L42 38 L30 58 L18 38 Z" fill="none" stroke="#8fd3b5" stroke-width="1.5" opacity=".6"/>`;

/** The SVG markup of a tile (`"back"` for a tile back). @param {string} code @returns {string} */
export function tileSVG(code) {
  const inner = code === "back" ? BACK : BODY + `<g>${face(code)}</g>`;
  return `<svg viewBox="0 0 60 80" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">${inner}</svg>`;
}

/** Names read out to screen readers and shown as tooltips. @param {string} code @param {"zh"|"en"} lang @returns {string} */
export function tileName(code, lang) {
  if (code === "back") return lang === "zh" ? "牌背" : "tile back";
  const n = Number(code.charAt(0));
  const s = code.charAt(1);
  if (lang === "zh") {
    if (s === "m") return NUMERALS[n] + "万";
    if (s === "p") return NUMERALS[n] + "饼";
    if (s === "s") return NUMERALS[n] + "条";
    if (s === "z") return ["", "东风", "南风", "西风", "北风", "白板", "发财", "红中"][n];
    return FLOWERS[n];
  }
  if (s === "m") return `${n} Characters`;
  if (s === "p") return `${n} Dots`;
  if (s === "s") return `${n} Bamboo`;
  if (s === "z") return ["", "East", "South", "West", "North", "White", "Green", "Red"][n];
  return ["", "Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"][n];
}

/**
 * A tile element.
 * @param {string} code a tile ("5m") or "back"
 * @param {{size?: "xs"|"s"|"m"|"l", lang?: "zh"|"en", badge?: string, cls?: string}} [opts]
 * @returns {HTMLElement}
 */
export function tileEl(code, opts = {}) {
  const el = document.createElement("span");
  el.className = `tile tile-${opts.size || "m"}${opts.cls ? " " + opts.cls : ""}`;
  el.dataset.tile = code;
  el.innerHTML = tileSVG(code);
  const name = tileName(code, opts.lang || "zh");
  el.title = name;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", name);
  if (opts.badge) {
    const b = document.createElement("span");
    b.className = "tile-badge";
    b.textContent = opts.badge;
    el.append(b);
  }
  return el;
}
