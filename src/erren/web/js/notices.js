// What the player is told when money is at stake: what leaving costs (the leave dialog), why a
// table closed (by the `closed` message's code, with the rooms he can still enter), and the
// daily relief grant (救济豆) when his beans no longer admit him to any room.

import { ApiError, api } from "./api.js";
import { h, num } from "./dom.js";
import { failure, roomIdName, stakeText, t } from "./i18n.js";
import { familyClient, familyName, tableKind } from "./families.js";

/** @typedef {import("./api.js").Room} Room */
/** @typedef {import("./api.js").TableInfo} TableInfo */

/** Below this balance no room admits a player, and relief may be claimed (the contract). */
export const RELIEF_BELOW = 1000;

/** @type {Promise<Room[]>|null} */
let roomsOnce = null;

/**
 * The header's balance: a coin mark, the number, then the unit, which a phone held upright
 * leaves out (style.css) so that the number is never cut; the link's name always says both.
 * @param {HTMLElement} el @param {number} balance
 */
export function showBalance(el, balance) {
  el.replaceChildren(`${num(balance)} `, h("span.unit", null, t("beans")));
  el.setAttribute("aria-label", `${num(balance)} ${t("beans")}`);
}

/** The room catalogue, fetched once per page. @returns {Promise<Room[]>} */
export function rooms() {
  if (!roomsOnce) {
    roomsOnce = api("GET", "/rooms").catch((e) => {
      roomsOnce = null;
      throw e;
    });
  }
  return /** @type {Promise<Room[]>} */ (roomsOnce);
}

/** A room's name in the player's language. @param {Room} r @returns {string} */
export function roomName(r) {
  return roomIdName(r.id);
}

/**
 * The points an escape costs in a family (its `escapePoints` hook: xiamen 400, arcade
 * 13 × base_points; 13 by default, as guobiao-2p); used where the server gives no figure
 * (score-only tables).
 * @param {string} family @param {Record<string, any>} options @returns {number}
 */
export function escapePoints(family, options) {
  const points = familyClient(family).escapePoints;
  return points ? points(options) : 13;
}

/**
 * What leaving costs now, as a sentence: nothing between hands; in a running hand the escape
 * penalty, in beans at a bean room (the room's `escape_beans`, at most the balance; none
 * while the player is new: `/me/balance`'s `new_player_hands_left`) and in points at a
 * score-only table.
 * @param {TableInfo|null} info @param {boolean} running @returns {Promise<string>}
 */
export async function leaveCost(info, running) {
  if (!running || !info) return t("leave_free");
  const own = tableKind(info.kind); // a family's own kind of table says what leaving costs
  if (own) return t(own.leave);
  if (info.room) {
    const all = await rooms();
    const room = all.find((r) => r.id === info.room);
    if (room) {
      const points = room.escape_points ?? escapePoints(room.family, /** @type {any} */ (room).options || {});
      const beans = room.escape_beans ?? points * room.stake;
      const mine = await api("GET", "/me/balance").catch(() => null);
      const balance = mine ? Number(mine.balance) : null;
      const newHands = mine ? Number(mine.new_player_hands_left) || 0 : 0;
      if (newHands > 0) return t("leave_new", num(newHands));
      if (balance !== null && balance < beans) return t("leave_beans_capped", num(balance), num(points), num(room.stake), num(beans));
      return t("leave_beans", num(beans), num(points), num(room.stake));
    }
  }
  return t("leave_points", num(escapePoints(info.family, info.options || {})));
}

/**
 * The leave dialog (a modal over the table): the cost, Leave and Stay.
 * @param {{info: TableInfo|null, running: boolean, onLeave: () => void, onStay: () => void}} o
 * @returns {HTMLElement}
 */
export function leaveDialog(o) {
  const cost = h("p.leave-cost", null, "…");
  const leave = /** @type {HTMLButtonElement} */ (h("button.primary#btn-leave-yes", { type: "button", onclick: o.onLeave }, o.running ? t("leave_escape") : t("leave")));
  const box = h(
    "div.dialog-back",
    { onclick: (/** @type {Event} */ e) => { if (e.target === box) o.onStay(); } },
    h("div.dialog.leave-dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "leave-title" },
      h("h2#leave-title", null, o.running ? t("leave_title_running") : t("leave_title")),
      cost,
      h("div.row", null, leave, h("button#btn-leave-no", { type: "button", onclick: o.onStay }, t("stay"))),
    ),
  );
  box.dataset.running = o.running ? "true" : "false";
  leaveCost(o.info, o.running)
    .then((text) => { cost.textContent = text; })
    .catch(() => { cost.textContent = t("leave_confirm"); });
  window.setTimeout(() => leave.focus(), 0);
  return box;
}

/** The relief claim (救济豆): a button that POSTs /me/relief and says what came of it.
 * @param {(balance: number) => void} [onBalance] @returns {HTMLElement} */
export function reliefEl(onBalance) {
  const out = h("p.relief-result", { role: "status" });
  const btn = /** @type {HTMLButtonElement} */ (h("button.primary#btn-relief", { type: "button" }, t("relief_claim")));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    out.className = "relief-result";
    try {
      const res = await api("POST", "/me/relief");
      out.textContent = t("relief_granted", num(res.granted), num(res.balance));
      const beans = document.getElementById("beans");
      if (beans) beans.textContent = `${num(res.balance)} ${t("beans")}`;
      if (onBalance) onBalance(Number(res.balance));
    } catch (e) {
      const code = e instanceof ApiError ? e.code : null;
      const key = code ? `relief_${code.replace(/-/g, "_")}` : "";
      out.className = "relief-result error";
      out.textContent = key && t(key) !== key ? t(key) : failure(e);
    }
  });
  return h("div.panel.relief", null, h("p", null, t("relief_d", num(RELIEF_BELOW))), btn, out);
}

/**
 * The table closed: its code in the player's language; `below-entry` says why (his balance and
 * the room's limits) and offers the rooms he can still enter.
 * @param {any} msg the `closed` message
 * @param {number} seat the player's seat (`left`, `escaped`, `not-ready` say who)
 * @param {(next?: string) => void} exit leave the table view (to `next`, a hash, or the lobby)
 * @returns {HTMLElement}
 */
export function closedEl(msg, seat, exit) {
  const code = String(msg.code);
  /** @type {Record<string, any>} */
  const p = msg.params || {};
  const mine = p.seat === seat || (Array.isArray(p.seats) && p.seats.includes(seat));
  const base = `closed_${code.replace(/-/g, "_")}`;
  const key = mine && t(`${base}_me`) !== `${base}_me` ? `${base}_me` : base;
  const known = t(key) !== key;
  const panel = h("div.panel.closed", { role: "alert", dataset: { code } }, h("h2", null, t("closed_title")));
  if (code === "below-entry" || code === "above-entry") {
    const line = h("p.closed-why", null, t(key, num(Number(p.balance)), roomIdName(String(p.room || "")), num(Number(p.entry_min)), Number(p.entry_max) >= 1e9 ? "∞" : num(Number(p.entry_max))));
    panel.append(line);
    /** @type {string[]} */
    const ids = Array.isArray(p.rooms) ? p.rooms.map(String) : [];
    const list = h("div.rooms.closed-rooms");
    panel.append(h("p", null, ids.length ? t("closed_can_enter") : t("closed_no_room")), list);
    rooms()
      .then((all) => {
        const here = all.find((r) => r.id === p.room);
        if (here) line.textContent = t(key, num(Number(p.balance)), roomName(here), num(here.entry_min), here.entry_max >= 1e9 ? "∞" : num(here.entry_max));
        for (const id of ids) {
          const r = all.find((x) => x.id === id);
          list.append(
            h("button.room.closed-room", { type: "button", "data-room": id, onclick: () => exit(`#/quick/${encodeURIComponent(id)}`) },
              h("b", null, r ? `${familyName(r.family)} · ${roomName(r)}` : roomIdName(id)),
              r ? h("span", null, stakeText(r.stake, r.unit)) : null,
              r ? h("span.limits", null, t("entry", num(r.entry_min), r.entry_max >= 1e9 ? "∞" : num(r.entry_max))) : null,
            ),
          );
        }
      })
      .catch(() => {
        for (const id of ids) list.append(h("button.room.closed-room", { type: "button", "data-room": id, onclick: () => exit(`#/quick/${encodeURIComponent(id)}`) }, roomIdName(id)));
      });
    if (Number(p.balance) < RELIEF_BELOW) panel.append(reliefEl());
  } else {
    panel.append(h("p.closed-why", null, known ? t(key) : t("err_unknown", code)));
  }
  panel.append(h("button#btn-closed-lobby", { type: "button", onclick: () => exit() }, t("back_lobby")));
  return panel;
}
