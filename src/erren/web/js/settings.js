// The settings panel (设置), opened from the header: the language, the sounds, the motion, the
// hints, the hand's tile size, a high-contrast tile theme, the table's colour, two play aids
// (自动和, 不吃碰) and 屏蔽聊天 (nobody's quick chat is shown: chat.js).  Every choice is
// remembered by this browser (localStorage) and takes effect at once; the look is a class or
// two on <html> (style.css does the rest).  A registered player's choices are kept with his
// account too (accountsettings.js: `panelChoices` and `adoptChoices` are what it sends and
// takes back).

import { h } from "./dom.js";
import { chosenLang, getLang, setLang, t } from "./i18n.js";
import { allHintsOn, setAllHints } from "./hints.js";
import { motionChoice, setMotionChoice } from "./motion.js";
import { muted, setMuted } from "./sound.js";
import { chatMuted, setChatMuted } from "./chat.js";

/** @typedef {"small"|"normal"|"large"} TileSize */
/** @typedef {"green"|"blue"|"brown"} Felt */
/** @typedef {"lang"|"look"|"play"} Changed what a change touched: the words, the look, the table's play */
/** @typedef {import("./i18n.js").Lang} Lang */
/** @typedef {import("./motion.js").MotionChoice} MotionChoice */
/**
 * The panel's choices, one key per control (the account's document: PUT /me/settings); a key
 * absent or null was never chosen.
 * @typedef {{lang?: Lang|null, sound?: boolean|null, motion?: MotionChoice|null, hints?: boolean|null, tiles?: TileSize|null, contrast?: boolean|null, felt?: Felt|null, autowin?: boolean|null, noclaims?: boolean|null, mutechat?: boolean|null, watch?: WatchChoice|null}} Choices
 * @typedef {"nobody"|"friends"|"everyone"} WatchChoice
 */

const KEY = {
  tiles: "erren.tiles",
  contrast: "erren.contrast",
  felt: "erren.felt",
  autoWin: "erren.autowin",
  noClaims: "erren.noclaims",
  watch: "erren.watch",
};
/** Who may watch the player's tables (the server reads the account's choice: watching.py). @type {WatchChoice[]} */
const WATCHES = ["nobody", "friends", "everyone"];
/** @type {TileSize[]} */
const SIZES = ["small", "normal", "large"];
/** @type {Felt[]} */
const FELTS = ["green", "blue", "brown"];

/** @param {string} key @returns {string|null} */
function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remember a value (null forgets it: the default). @param {string} key @param {string|null} value */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage refused: the setting holds for this page only */
  }
}

/** @returns {TileSize} */
export function tileSize() {
  const v = read(KEY.tiles);
  return v === "small" || v === "large" ? v : "normal";
}

/** @returns {Felt} */
export function felt() {
  const v = read(KEY.felt);
  return v === "blue" || v === "brown" ? v : "green";
}

/** Who may watch the player's tables (friends unless chosen). @returns {WatchChoice} */
export function watchChoice() {
  const v = read(KEY.watch);
  return v === "nobody" || v === "everyone" ? v : "friends";
}

/** @returns {boolean} */
export function highContrast() {
  return read(KEY.contrast) === "on";
}

/** 自动和: a legal win is claimed at once (off unless switched on). @returns {boolean} */
export function autoWin() {
  return read(KEY.autoWin) === "on";
}

/** 不吃碰: a claim window offering only chows and pungs is passed at once (off unless switched on). @returns {boolean} */
export function noClaims() {
  return read(KEY.noClaims) === "on";
}

/**
 * The answer the play aids give to a decision at once, if any: 自动和 the first legal move
 * that wins the hand — whatever the family calls it (`wins`, the server's list: 和, 自摸,
 * xiamen's 三金倒, 抢金 and the 游 chain's win; never 游金's throwing of the gold); 不吃碰 the
 * pass of a claim window whose only other answers are chows and pungs.
 * @param {string[]} legal @param {string[]} wins those of `legal` that win @returns {string|null}
 */
export function aidAnswer(legal, wins) {
  const verbs = legal.map((a) => a.split(":")[0]);
  const win = legal.find((a) => wins.includes(a));
  if (win && autoWin()) return win;
  const pass = verbs.indexOf("pass");
  if (pass >= 0 && noClaims() && verbs.every((v) => v === "pass" || v === "chi" || v === "peng")) return legal[pass];
  return null;
}

/** Every control's value as the panel shows it now. @returns {Choices} */
export function panelChoices() {
  return {
    lang: chosenLang(), // null while it follows the browser's language: not the account's to keep
    sound: !muted(),
    motion: motionChoice(),
    hints: allHintsOn(),
    tiles: tileSize(),
    contrast: highContrast(),
    felt: felt(),
    autowin: autoWin(),
    noclaims: noClaims(),
    mutechat: chatMuted(),
    watch: watchChoice(),
  };
}

/**
 * Take the choices kept elsewhere (the account's) over this browser's: each one given is
 * remembered here and shown at once; one absent or null leaves this browser's as it is.
 * @param {Choices} c @returns {boolean} whether anything changed
 */
export function adoptChoices(c) {
  const was = JSON.stringify(panelChoices());
  if (c.lang === "zh" || c.lang === "en") {
    if (c.lang !== getLang()) setLang(c.lang);
  }
  if (typeof c.sound === "boolean" && c.sound === muted()) setMuted(!c.sound);
  if (c.motion === "system" || c.motion === "reduce") setMotionChoice(c.motion);
  if (typeof c.hints === "boolean" && c.hints !== allHintsOn()) setAllHints(c.hints);
  if (c.tiles && SIZES.includes(c.tiles)) write(KEY.tiles, c.tiles === "normal" ? null : c.tiles);
  if (typeof c.contrast === "boolean") write(KEY.contrast, c.contrast ? "on" : null);
  if (c.felt && FELTS.includes(c.felt)) write(KEY.felt, c.felt === "green" ? null : c.felt);
  if (typeof c.autowin === "boolean") write(KEY.autoWin, c.autowin ? "on" : null);
  if (typeof c.noclaims === "boolean") write(KEY.noClaims, c.noclaims ? "on" : null);
  if (typeof c.mutechat === "boolean") setChatMuted(c.mutechat);
  if (c.watch && WATCHES.includes(c.watch)) write(KEY.watch, c.watch === "friends" ? null : c.watch);
  applyLook();
  return JSON.stringify(panelChoices()) !== was;
}

/** Put the look on <html>: tile size, contrast, the table's colour, reduced motion. */
export function applyLook() {
  const cl = document.documentElement.classList;
  for (const s of SIZES) cl.toggle(`tiles-${s}`, s !== "normal" && tileSize() === s);
  for (const f of FELTS) cl.toggle(`felt-${f}`, f !== "green" && felt() === f);
  cl.toggle("high-contrast", highContrast());
  cl.toggle("reduce-motion", motionChoice() === "reduce");
}

/**
 * A group of choices, one of them checked (radio buttons under a legend).
 * @param {string} name @param {string} legend @param {Array<[string, string]>} choices value, label
 * @param {string} value the one checked @param {(value: string) => void} pick
 * @returns {HTMLElement}
 */
function choiceGroup(name, legend, choices, value, pick) {
  return h(
    "fieldset.set-group",
    { "data-setting": name },
    h("legend", null, legend),
    ...choices.map(([v, label]) =>
      h(
        "label.set-choice",
        null,
        h("input", { type: "radio", name: `set-${name}`, value: v, checked: v === value, onchange: () => pick(v) }),
        h("span", null, label),
      ),
    ),
  );
}

/**
 * A switch (a checkbox with its label, and a line saying more under it: its description, not
 * part of its name).
 * @param {string} name @param {string} label @param {boolean} on @param {(on: boolean) => void} set
 * @param {string} [note] @returns {HTMLElement}
 */
function checkbox(name, label, on, set, note) {
  const ids = note ? { "aria-labelledby": `set-${name}-name`, "aria-describedby": `set-${name}-note` } : {};
  const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: on, ...ids }));
  box.addEventListener("change", () => set(box.checked));
  const text = h(`span#set-${name}-name`, null, label);
  const said = note ? h("span.set-said", null, text, h(`span.set-desc#set-${name}-note`, null, note)) : text;
  return h("label.set-check", { "data-setting": name }, box, said);
}

/** The dialog's settings, each applied at once. @param {(what: Changed) => void} changed @param {() => void} redraw @returns {HTMLElement[]} */
function controls(changed, redraw) {
  /** @param {() => void} f @param {Changed} what @returns {() => void} */
  const then = (f, what) => () => {
    f();
    applyLook();
    changed(what);
  };
  return [
    choiceGroup("lang", t("set_lang"), [["zh", "中文"], ["en", "English"]], getLang(), (v) => {
      setLang(v === "en" ? "en" : "zh");
      changed("lang");
      redraw();
    }),
    checkbox("sound", t("set_sound"), !muted(), (on) => then(() => setMuted(!on), "play")()),
    choiceGroup("motion", t("set_motion"), [["system", t("set_motion_system")], ["reduce", t("set_motion_reduce")]], motionChoice(), (v) =>
      then(() => setMotionChoice(v === "reduce" ? "reduce" : "system"), "look")()),
    checkbox("hints", t("set_hints"), allHintsOn(), (on) => then(() => setAllHints(on), "play")()),
    choiceGroup("tiles", t("set_tiles"), SIZES.map((s) => [s, t(`set_tiles_${s}`)]), tileSize(), (v) =>
      then(() => write(KEY.tiles, v === "normal" ? null : v), "look")()),
    checkbox("contrast", t("set_contrast"), highContrast(), (on) => then(() => write(KEY.contrast, on ? "on" : null), "look")()),
    choiceGroup("felt", t("set_felt"), FELTS.map((f) => [f, t(`set_felt_${f}`)]), felt(), (v) =>
      then(() => write(KEY.felt, v === "green" ? null : v), "look")()),
    checkbox("autowin", t("set_autowin"), autoWin(), (on) => then(() => write(KEY.autoWin, on ? "on" : null), "play")(), t("set_autowin_note")),
    checkbox("noclaims", t("set_noclaims"), noClaims(), (on) => then(() => write(KEY.noClaims, on ? "on" : null), "play")()),
    checkbox("mutechat", t("set_mutechat"), chatMuted(), (on) => then(() => setChatMuted(on), "play")()),
    choiceGroup("watch", t("set_watch"), WATCHES.map((w) => [w, t(`set_watch_${w}`)]), watchChoice(), (v) =>
      then(() => write(KEY.watch, v === "friends" ? null : v), "play")()),
  ];
}

/** The dialog open now, if any. @type {HTMLElement|null} */
let open = null;

/** Close the dialog and give the focus back to the header's button. */
export function closeSettings() {
  if (!open) return;
  open.remove();
  open = null;
  const btn = document.getElementById("btn-settings");
  if (btn) btn.focus();
}

/** Keep Tab inside the dialog. @param {HTMLElement} box @param {KeyboardEvent} e */
function trapTab(box, e) {
  const all = [...box.querySelectorAll("input, button")].filter((el) => el instanceof HTMLElement && !(el instanceof HTMLInputElement && el.type === "radio" && !el.checked));
  const first = all[0];
  const last = all[all.length - 1];
  if (!(first instanceof HTMLElement) || !(last instanceof HTMLElement)) return;
  if (e.shiftKey && document.activeElement === first) {
    last.focus();
    e.preventDefault();
  } else if (!e.shiftKey && document.activeElement === last) {
    first.focus();
    e.preventDefault();
  }
}

/**
 * Open the settings over the current screen (role dialog, modal; Escape or 关闭 closes it and
 * the focus goes back to the button).  `changed` is told what a change touched; `withAccount`:
 * the choices are kept with the player's account too (the note says so).
 * @param {(what: Changed) => void} changed @param {boolean} [withAccount]
 */
export function openSettings(changed, withAccount = false) {
  closeSettings();
  const draw = () => {
    const close = h("button.primary#btn-settings-close", { type: "button", onclick: closeSettings }, t("set_close"));
    const dialog = h(
      "div.dialog.settings-dialog",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title" },
      h("h2#settings-title", null, t("set_title")),
      h("div.set-list", null, ...controls(changed, () => { draw(); })),
      h("p.set-note", null, t(withAccount ? "set_note_account" : "set_note")),
      h("div.row", null, close),
    );
    const box = h("div.dialog-back.settings-back", { onclick: (/** @type {Event} */ e) => { if (e.target === box) closeSettings(); } }, dialog);
    // keys typed in the dialog are not the table's shortcuts; Escape closes it
    box.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") closeSettings();
      else if (e.key === "Tab") trapTab(dialog, e);
    });
    const was = open;
    open = box;
    if (was) was.replaceWith(box);
    else document.body.append(box);
    const first = dialog.querySelector("input:checked") || dialog.querySelector("input");
    if (first instanceof HTMLElement) first.focus();
  };
  draw();
}

/** Whether the dialog is open. @returns {boolean} */
export function settingsOpen() {
  return open !== null;
}

applyLook();
