// The rules pages: a drawer over whatever screen is open (the table keeps running under it),
// per family and in the header's language: prose (tiles, flow, special actions, scoring) and
// the scorer's fan / pattern / 水 rows, each with an example hand drawn with the game's tiles,
// filtered by a search box. Addresses: #rules/<family>[/<row id>][/<table>] (a family's other
// fan table; its first, the default, is never written); the settlement's rows link there. All of
// it, the fan tables' ids too, comes from GET /rules/{family} (erren.rules): no value is copied here.

import { h } from "./dom.js";
import { getLang, otherLang, setLang, t } from "./i18n.js";
import { familyIds, familyName } from "./families.js";
import { parseHand, sortTiles } from "./notation.js";
import { tileEl } from "./tiles.js";

/** @typedef {import("./schema.js").RuleExample} RuleExample */
/** @typedef {import("./schema.js").RuleLabel} RuleLabel */
/** @typedef {import("./schema.js").RuleRow} RuleRow */
/** @typedef {import("./schema.js").RulesPage} RulesPage */
/** @typedef {{family: string, row: string|null, table: string|null}} RulesLink */

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

/** The address of a rule entry; `table` is a fan table other than the family's default (none:
 * the default). @param {string} family @param {string|null} [row] @param {string|null} [table] */
export function rulesHref(family, row = null, table = null) {
  let out = `#rules/${family}`;
  if (row) out += `/${encodeURIComponent(row)}`;
  if (table) out += `${row ? "" : "/-"}/${encodeURIComponent(table)}`;
  return out;
}

/** `#rules/<family>[/<row>][/<table>]` → its parts, or null for another address (a table the
 * family has not is read as its default when the page is fetched). @param {string} hash @returns {RulesLink|null} */
export function parseRulesHash(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] !== "rules") return null;
  const family = familyIds().includes(parts[1]) ? parts[1] : familyIds()[0] || "";
  const row = parts[2] && parts[2] !== "-" ? decodeURIComponent(parts[2]) : null;
  const table = parts[3] ? decodeURIComponent(parts[3]) : null;
  return { family, row, table };
}

/** A family's rules page at a fan table: the default page when the family has no such table
 * (an old or mistyped address). @param {string} family @param {string|null} table @returns {Promise<RulesPage>} */
async function pageAt(family, table) {
  if (!table) return page(family, null);
  const plain = await page(family, null);
  return plain.tables.indexOf(table) > 0 ? page(family, table) : plain;
}

/** Does a row match a search text (name in either language, id, value)? @param {RuleRow} row @param {string} query */
export function rowMatches(row, query) {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(row.value) === q;
  return [row.name_zh, row.name_en, row.id].some((s) => s.toLowerCase().includes(q));
}

/** A circumstance of an example: its words, then the tiles it names. @param {RuleLabel} l @returns {HTMLElement} */
function labelEl(l) {
  const lang = getLang();
  return h("span.rule-label", null, lang === "zh" ? l.zh : l.en, ...l.tiles.map((tile) => tileEl(tile, { size: "xs", lang })));
}

/** How an example adds up, from the family's data: each row's value per occurrence × its
 * count, the sum in its unit (番, 水, 役满) and what a cap makes of it. "大四喜 2 + 字一色 1 = 3 役满",
 * "金牌 1×2 = 2 水". @param {RuleExample} ex @returns {string} */
export function exampleSum(ex) {
  const zh = getLang() === "zh";
  const terms = ex.terms.map((r) => `${zh ? r.zh : r.en} ${r.each}${r.count > 1 ? `×${r.count}` : ""}`).join(" + ");
  const unit = zh ? ex.unit.zh : ex.unit.en;
  const capped = ex.capped === null ? "" : t("rules_capped", ex.capped, unit);
  return `${terms} = ${ex.sum} ${unit}${capped}`;
}

/** A paragraph of prose: a Chinese term glossed in English text "(报听)" is a name, marked as
 * Chinese for screen readers. @param {string} text @returns {Array<string|HTMLElement>} */
function proseParts(text) {
  if (getLang() === "zh") return [text];
  return text.split(/(\([^()]*[\u3400-\u9fff][^()]*\))/).filter(Boolean).map((part) => (/^\(.*[\u3400-\u9fff]/.test(part) ? h("span.rules-term", { lang: "zh-CN" }, part) : part));
}

/** A spec reference without the family's id: "guobiao-2p §1.4, §1.5" → "§1.4, §1.5". @param {string} ref */
function refText(ref) {
  return ref.replace(/^[a-z0-9-]+\s+/, "");
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
  /** @type {Array<string|HTMLElement>} */
  const labels = [];
  ex.labels.forEach((l, i) => labels.push(...(i ? [" · "] : []), labelEl(l)));
  return h("div.rule-example", null, box, h("div.rule-scored", null, ...labels, labels.length ? " — " : "", h("span.rule-sum", null, exampleSum(ex))));
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
    ...familyIds().map((f) => h(`a.rules-tab${f === link.family ? ".on" : ""}`, { href: rulesHref(f) }, familyName(f))),
  );
  const box = h(
    "div.rules-drawer",
    { role: "dialog", "aria-label": t("rules_title") },
    h(
      "div.rules-head",
      null,
      h("h2", null, t("rules_title")),
      h("button.ghost.rules-tutorial", { type: "button", onclick: onTutorial }, t("rules_tutorial")),
      h("button.ghost.rules-lang", { type: "button", lang: otherLang(), onclick: () => { setLang(lang === "zh" ? "en" : "zh"); openRules(link, onClose, onTutorial); window.dispatchEvent(new Event("erren-lang")); } }, t("lang_switch")),
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
    data = await pageAt(link.family, link.table);
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
        ...s.paras.map((p) => h("p", null, ...proseParts(lang === "zh" ? p.zh : p.en), h("span.rules-ref", null, lang === "zh" ? `（${refText(p.ref)}）` : ` (${refText(p.ref)})`))),
      ),
    );
  }
  if (data.win_types.length) {
    parts.push(
      h(
        "details.rules-section",
        { open: !link.row },
        h("summary", null, t("rules_win_types")),
        h(
          "table.rules-wins",
          null,
          h("thead", null, h("tr", null, ...["rules_wt_type", "rules_wt_m", "rules_wt_bonus"].map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", null, ...data.win_types.map((w) => h("tr", null, h("td", null, lang === "zh" ? w.zh : w.en), h("td", null, `×${w.m}`), h("td", null, w.bonus ? `+${w.bonus}` : "—")))),
        ),
      ),
    );
  }
  const heading = h("h3.rules-rows-title", null, data.rows_title[getLang() === "zh" ? "zh" : "en"]);
  if (data.tables.length) {
    heading.append(
      h("span.rules-tables", null, ...data.tables.map((tb, i) => h(`a.rules-table${data.table === tb ? ".on" : ""}`, { href: rulesHref(data.family, null, i ? tb : null), "data-table": tb }, t(`rules_table_${tb}`)))),
    );
  }
  parts.push(heading);
  const list = h("div.rules-rows");
  // the columns of every row: its name, the name in the other language, its value
  list.append(h("div.rule-heads", { "aria-hidden": "true" }, h("span.rule-name", null, t("rules_h_name")), h("span.rule-alt", null, t("rules_h_alt")), h("span.rule-value", null, t("rules_h_value"))));
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
      h("div.rule-title", { title: row.id }, h("span.rule-name", null, name), h("span.rule-alt", { lang: otherLang() }, other), h("span.rule-value", null, `${row.value} ${unit}`)),
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
