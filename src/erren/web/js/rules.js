// The rules pages: a drawer over whatever screen is open (the table keeps running under it),
// per family and in the header's language: prose (tiles, flow, special actions, scoring) and
// the scorer's fan / pattern / 水 rows, each with an example hand drawn with the game's tiles,
// filtered by a search box. Addresses: #rules/<family>[/<row id>][/gb]; the settlement's rows
// link there. All of it comes from GET /rules/{family} (erren.rules): no value is copied here.

import { h } from "./dom.js";
import { familyName, getLang, setLang, t } from "./i18n.js";
import { parseHand, sortTiles } from "./notation.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./schema.js").RuleExample} RuleExample */
/** @typedef {import("./schema.js").RuleRow} RuleRow */
/** @typedef {import("./schema.js").RulesPage} RulesPage */
/** @typedef {{family: string, row: string|null, table: string|null}} RulesLink */

export const FAMILIES = ["guobiao-2p", "xiamen", "arcade"];

/** @type {Map<string, Promise<RulesPage>>} */
const pages = new Map();

/** @param {string} family @param {string|null} table @returns {Promise<RulesPage>} */
function page(family, table) {
  const key = `${family}/${table || ""}`;
  let p = pages.get(key);
  if (!p) {
    const q = table ? `?table=${encodeURIComponent(table)}` : "";
    p = fetch(`/rules/${encodeURIComponent(family)}${q}`).then((r) => {
      if (!r.ok) throw new Error(`rules ${family}: ${r.status}`);
      return r.json();
    });
    p.catch(() => pages.delete(key));
    pages.set(key, p);
  }
  return p;
}

/** The address of a rule entry. @param {string} family @param {string|null} [row] @param {string|null} [table] */
export function rulesHref(family, row = null, table = null) {
  let out = `#rules/${family}`;
  if (row) out += `/${encodeURIComponent(row)}`;
  if (table && table !== "2p") out += `${row ? "" : "/-"}/${table}`;
  return out;
}

/** `#rules/<family>[/<row>][/gb]` → its parts, or null for another address. @param {string} hash @returns {RulesLink|null} */
export function parseRulesHash(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] !== "rules") return null;
  const family = FAMILIES.includes(parts[1]) ? parts[1] : "guobiao-2p";
  const row = parts[2] && parts[2] !== "-" ? decodeURIComponent(parts[2]) : null;
  const table = parts[3] === "gb" ? "gb" : null;
  return { family, row, table };
}

/** Does a row match a search text (name in either language, id, value)? @param {RuleRow} row @param {string} query */
export function rowMatches(row, query) {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(row.value) === q;
  return [row.name_zh, row.name_en, row.id].some((s) => s.toLowerCase().includes(q));
}

/** An example hand drawn with the game's tiles. @param {RuleExample} ex @returns {HTMLElement} */
function exampleEl(ex) {
  const lang = getLang();
  const p = parseHand(ex.hand);
  const box = h("div.rule-hand");
  for (const tile of sortTiles(p.concealed)) box.append(tileEl(tile, { size: "s", lang }));
  for (const m of p.melds) {
    box.append(h("span.gap"));
    for (const tile of m.tiles) box.append(tileEl(tile, { size: "s", lang, cls: "meld" }));
  }
  if (p.win) {
    box.append(h("span.gap"));
    box.append(tileEl(p.win, { size: "s", lang, cls: "winning" }));
  }
  for (const tile of p.flowers) box.append(tileEl(tile, { size: "s", lang, cls: "flower" }));
  const labels = ex.labels.map((l) => (lang === "zh" ? l.zh : l.en)).join(" · ");
  const scored = ex.rows.map(([name, value, count]) => `${name} ${value}${count > 1 ? `×${count}` : ""}`).join(" + ");
  return h("div.rule-example", null, box, h("div.rule-scored", null, labels ? `${labels} — ` : "", `${scored} = ${ex.total}`));
}

/** @type {HTMLElement|null} */
let drawer = null;

/** Close the drawer (the address goes back to the screen under it). */
export function closeRules() {
  if (drawer) drawer.remove();
  drawer = null;
}

/**
 * Open (or update) the rules drawer at a link.
 * @param {RulesLink} link @param {() => void} onClose @param {() => void} onTutorial
 */
export async function openRules(link, onClose, onTutorial) {
  const lang = getLang();
  closeRules();
  const body = h("div.rules-body", null, h("div.spinner"));
  const search = /** @type {HTMLInputElement} */ (h("input.rules-search", { type: "search", placeholder: t("rules_search"), "aria-label": t("rules_search") }));
  const tabs = h(
    "nav.rules-tabs",
    null,
    ...FAMILIES.map((f) => h(`a.rules-tab${f === link.family ? ".on" : ""}`, { href: rulesHref(f) }, familyName(f))),
  );
  const box = h(
    "div.rules-drawer",
    { role: "dialog", "aria-label": t("rules_title") },
    h(
      "div.rules-head",
      null,
      h("h2", null, t("rules_title")),
      h("button.ghost.rules-tutorial", { type: "button", onclick: onTutorial }, t("rules_tutorial")),
      h("button.ghost.rules-lang", { type: "button", onclick: () => { setLang(lang === "zh" ? "en" : "zh"); openRules(link, onClose, onTutorial); window.dispatchEvent(new Event("erren-lang")); } }, t("lang_switch")),
      h("button.ghost.rules-close", { type: "button", onclick: onClose, "aria-label": t("rules_close") }, "✕"),
    ),
    tabs,
    search,
    body,
  );
  drawer = h("div.rules-back", { onclick: (/** @type {Event} */ e) => e.target === drawer && onClose() }, box);
  // keys typed in the drawer are not the table's shortcuts; Escape closes it
  drawer.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Escape") onClose();
  });
  document.body.append(drawer);
  const mine = drawer;
  /** @type {RulesPage} */
  let data;
  try {
    data = await page(link.family, link.table);
  } catch (e) {
    body.replaceChildren(h("p.error", null, t("error", e instanceof Error ? e.message : String(e))));
    return;
  }
  if (drawer !== mine) return;
  const parts = [];
  for (const s of data.sections) {
    parts.push(
      h(
        "details.rules-section",
        { open: !link.row, "data-section": s.id },
        h("summary", null, lang === "zh" ? s.title.zh : s.title.en),
        ...s.paras.map((p) => h("p", null, lang === "zh" ? p.zh : p.en, h("span.rules-ref", null, ` (${p.ref})`))),
      ),
    );
  }
  if (data.win_types.length) {
    parts.push(
      h(
        "details.rules-section",
        { open: !link.row },
        h("summary", null, t("rules_win_types")),
        h("table.rules-wins", null, ...data.win_types.map((w) => h("tr", null, h("td", null, w.zh), h("td", null, w.en), h("td", null, `×${w.m}`), h("td", null, w.bonus ? `+${w.bonus}` : "")))),
      ),
    );
  }
  const heading = h("h3.rules-rows-title", null, data.unit.en === "water" ? t("rules_rows_water") : t("rules_rows"));
  if (data.tables.length) {
    heading.append(
      h("span.rules-tables", null, ...data.tables.map((tb) => h(`a.rules-table${(link.table || "2p") === tb ? ".on" : ""}`, { href: rulesHref(data.family, null, tb) }, `${t("rules_table")} ${tb}`))),
    );
  }
  parts.push(heading);
  const list = h("div.rules-rows");
  const none = h("p.rules-none", { hidden: true }, t("rules_none"));
  /** @type {Array<[RuleRow, HTMLElement]>} */
  const shown = [];
  for (const row of data.rows) {
    const [name, other] = lang === "zh" ? [row.name_zh, row.name_en] : [row.name_en, row.name_zh];
    const unit = row.limit ? (lang === "zh" ? "倍役满" : "× yakuman") : lang === "zh" ? data.unit.zh : data.unit.en;
    const note = lang === "zh" ? row.note.zh : row.note.en;
    const el = h(
      "div.rule-row",
      { id: `rule-${row.id}`, "data-row": row.id },
      h("div.rule-title", null, h("span.rule-name", null, name), h("span.rule-alt", null, other), h("span.rule-id", null, row.id), h("span.rule-value", null, `${row.value} ${unit}`)),
      note ? h("div.rule-note", null, note) : null,
      row.example ? exampleEl(row.example) : h("div.rule-none", null, t("rules_no_example")),
    );
    shown.push([row, el]);
    list.append(el);
  }
  parts.push(list, none);
  body.replaceChildren(...parts);
  const filter = () => {
    let n = 0;
    for (const [row, el] of shown) {
      const ok = rowMatches(row, search.value);
      el.hidden = !ok;
      if (ok) n += 1;
    }
    none.hidden = n > 0;
  };
  search.addEventListener("input", filter);
  if (link.row) {
    const target = document.getElementById(`rule-${link.row}`);
    if (target) {
      target.classList.add("lit");
      target.scrollIntoView({ block: "center" });
    }
  } else {
    search.focus();
  }
}
