// Small DOM helpers.

/**
 * Create an element: h("button.primary", {onclick}, "text", child...).
 * @param {string} spec tag with optional .classes and #id
 * @param {Record<string, any>|null} [attrs]
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(spec, attrs, ...children) {
  const tag = /^[a-z0-9]*/i.exec(spec)?.[0] || "div";
  const el = document.createElement(tag);
  /** @type {string[]} */
  const classes = [];
  for (const [, mark, name] of spec.slice(tag.length).matchAll(/([.#])([^.#]+)/g)) {
    if (mark === "#") el.id = name;
    else classes.push(name);
  }
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "class") el.className += " " + v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? c : String(c));
  }
  return el;
}

/** @param {string} sel @returns {HTMLElement} */
export function $(sel) {
  const el = document.querySelector(sel);
  if (!(el instanceof HTMLElement)) throw new Error(`no element ${sel}`);
  return el;
}

/** A short message at the bottom of the screen; one about a screen (`scope`, e.g. "table")
 * goes with it when the screen closes (`clearToasts`).
 * @param {string} text @param {"info"|"error"} [kind] @param {string} [scope] */
export function toast(text, kind = "info", scope = "") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h(`div.toast.toast-${kind}`, { role: "status", "data-scope": scope || null }, text);
  box.append(el);
  window.setTimeout(() => el.remove(), 4000);
}

/** Take away every short toast still showing (the language switched: they would stay in the
 * other one until they fade). */
export function clearAllToasts() {
  document.getElementById("toasts")?.replaceChildren();
}

/** Take away the toasts still showing about the screen `scope` (it has closed: "托管 is on" is
 * no news in the lobby). @param {string} scope */
export function clearToasts(scope) {
  for (const el of document.querySelectorAll(`#toasts .toast[data-scope="${scope}"]`)) el.remove();
}

/** 12345 → "12,345". @param {number} n @returns {string} */
export function num(n) {
  return n.toLocaleString("en-US");
}
