// Keyboard play at a live table (the shortcuts listed under the board).

import { modeKept } from "./selection.js";

/**
 * A key at the live table: M (sounds off/on, whenever no dialog is open), the settlement's next
 * hand, a choice 1–9, Escape, A (托管), Enter or Space on a focused tile of the hand (played as
 * a click plays it), ←→ and Enter over the playable tiles, and each legal action's shortcut.
 * Enter or Space on a focused button is the button's own.  Nothing else while input waits (a dialog, a lost connection, a closed
 * table).
 * @param {import("./table.js").TableView} v
 * @param {KeyboardEvent} e
 */
export function onTableKey(v, e) {
  const target = e.target;
  if (target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
  if (v.dialog) return;
  if (e.key.toLowerCase() === "m") {
    v.toggleSound();
    return;
  }
  if (v.blocked() || v.closedMsg || v.connState === "replaced") return;
  if (v.end) {
    if (e.key === "n" || e.key === "Enter") {
      const next = v.root.querySelector(".settle-next");
      if (next instanceof HTMLButtonElement && !next.disabled) next.click();
    }
    return;
  }
  const key = e.key.toLowerCase();
  if ((key === "enter" || key === " ") && target instanceof HTMLElement) {
    if (target.matches("button, [role=switch], a[href]")) return; // the control's own press
    if (target.matches(".hand-mine > .tile.can")) {
      target.click();
      e.preventDefault();
      return;
    }
  }
  if (v.chooser && v.chooser.options && /^[1-9]$/.test(key)) {
    const opt = v.chooser.options[Number(key) - 1];
    if (opt) v.act(opt.action);
    e.preventDefault();
    return;
  }
  if (key === "escape" && (v.mode || v.chooser)) {
    if (!modeKept(v.mode, v.state, v.seat, v.givenSoFar())) v.mode = null; // a choice under way stays open
    v.chooser = null;
    v.render();
    return;
  }
  if (key === "a") {
    v.toggleTrustee();
    return;
  }
  if (key === "?") {
    v.askHint();
    return;
  }
  const tiles = [...v.root.querySelectorAll(".hand-mine > .tile.can")];
  if (key === "arrowleft" || key === "arrowright") {
    if (!tiles.length) return;
    const indices = tiles.map((el) => Number(el instanceof HTMLElement ? el.dataset.index : -1));
    let at = indices.indexOf(v.focus);
    at = at < 0 ? (key === "arrowleft" ? indices.length - 1 : 0) : (at + (key === "arrowleft" ? -1 : 1) + indices.length) % indices.length;
    v.focus = indices[at];
    v.render();
    // the keyboard goes with the cursor when it is on the hand
    const now = v.root.querySelector(`.hand-mine > .tile[data-index="${v.focus}"]`);
    if (now instanceof HTMLElement && target instanceof HTMLElement && target.matches(".hand-mine > .tile")) now.focus({ preventScroll: true });
    e.preventDefault();
    return;
  }
  if ((key === "enter" || key === "arrowup") && v.focus >= 0) {
    const el = v.root.querySelector(`.hand-mine > .tile[data-index="${v.focus}"]`);
    if (el instanceof HTMLElement) el.click();
    e.preventDefault();
    return;
  }
  for (const b of v.buttons()) {
    if (b.key && (b.key.toLowerCase() === key || (b.key === " " && key === " "))) {
      v.press(b);
      e.preventDefault();
      return;
    }
  }
}
