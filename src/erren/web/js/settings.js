// The settings panel (设置), opened from the header: the language, the sounds, the motion, the
// hints, the hand's tile size, a high-contrast tile theme, the table's colour, and two play
// aids (自动和, 不吃碰).  Every choice is remembered by this browser (localStorage) and takes
// effect at once; the look is a class or two on <html> (style.css does the rest).

import { h } from "./dom.js";
import { getLang, setLang, t } from "./i18n.js";
import { allHintsOn, setAllHints } from "./hints.js";
import { motionChoice, setMotionChoice } from "./motion.js";
import { muted, setMuted } from "./sound.js";

/** @typedef {"small"|"normal"|"large"} TileSize */
/** @typedef {"green"|"blue"|"brown"} Felt */
/** @typedef {"lang"|"look"|"play"} Changed what a change touched: the words, the look, the table's play */

const KEY = {
  tiles: "erren.tiles",
  contrast: "erren.contrast",
  felt: "erren.felt",
  autoWin: "erren.autowin",
  noClaims: "erren.noclaims",
};
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
 * The answer the play aids give to a decision at once, if any: 自动和 a legal win (`hu`,
 * `zimo`); 不吃碰 the pass of a claim window whose only other answers are chows and pungs.
 * @param {string[]} legal @returns {string|null}
 */
export function aidAnswer(legal) {
  const verbs = legal.map((a) => a.split(":")[0]);
  const win = legal.find((_, i) => verbs[i] === "hu" || verbs[i] === "zimo");
  if (win && autoWin()) return win;
  const pass = verbs.indexOf("pass");
  if (pass >= 0 && noClaims() && verbs.every((v) => v === "pass" || v === "chi" || v === "peng")) return legal[pass];
  return null;
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

/** A switch (a checkbox with its label). @param {string} name @param {string} label @param {boolean} on @param {(on: boolean) => void} set @returns {HTMLElement} */
function checkbox(name, label, on, set) {
  const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", checked: on }));
  box.addEventListener("change", () => set(box.checked));
  return h("label.set-check", { "data-setting": name }, box, h("span", null, label));
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
    checkbox("autowin", t("set_autowin"), autoWin(), (on) => then(() => write(KEY.autoWin, on ? "on" : null), "play")()),
    checkbox("noclaims", t("set_noclaims"), noClaims(), (on) => then(() => write(KEY.noClaims, on ? "on" : null), "play")()),
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
 * the focus goes back to the button).  `changed` is told what a change touched.
 * @param {(what: Changed) => void} changed
 */
export function openSettings(changed) {
  closeSettings();
  const draw = () => {
    const close = h("button.primary#btn-settings-close", { type: "button", onclick: closeSettings }, t("set_close"));
    const dialog = h(
      "div.dialog.settings-dialog",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title" },
      h("h2#settings-title", null, t("set_title")),
      h("div.set-list", null, ...controls(changed, () => { draw(); })),
      h("p.set-note", null, t("set_note")),
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
    const first = dialog.querySelector("input:checked, input");
    if (first instanceof HTMLElement) first.focus();
  };
  draw();
}

/** Whether the dialog is open. @returns {boolean} */
export function settingsOpen() {
  return open !== null;
}

applyLook();
