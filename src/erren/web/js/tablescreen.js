// Drawing a live table: the board as the player sees it, the prompt, the action buttons and the
// choice open, the connection badge, the overlays and the settlement.

import { closedEl } from "./notices.js";
import { describeLast } from "./events.js";
import { moveLabel, overlayEl, replacedEl } from "./reconnect.js";
import { boardEl, familyBoard, handOrder } from "./board.js";
import { givenPositions, givenTiles, openedBy } from "./selection.js";
import { h } from "./dom.js";
import { promptNode, promptOf } from "./prompts.js";
import { announcePrompt } from "./announce.js";
import { change, computerName, getLang, playerName, roomIdName, t } from "./i18n.js";
import { familyClient, familyIds, familyName, tableKind } from "./families.js";
import { animate, measure, motionWanted } from "./motion.js";
import { settlementEl, winTypeText } from "./settle.js";
import { muted } from "./sound.js";
import { attachReady, heldWaitsEl, hintSwitchEl, reasonText } from "./hints.js";
import { reviewAsk, reviewPanel, sessionText, shareLink } from "./review.js";
import { tileEl, tileName } from "./tiles.js";

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {import("./board.js").Obs} Obs */
/** @typedef {import("./board.js").BoardView} BoardView */

/** The board of the table as the player sees it. @param {TableView} tv @returns {BoardView} */
export function boardView(tv) {
  const st = /** @type {Obs} */ (tv.state);
  let lastDiscard = null;
  let oppDrew = false;
  for (const ev of tv.events) {
    if ((ev.kind === "discard" || ev.kind === "ting") && typeof ev.player === "number" && ev.player >= 0) {
      lastDiscard = { seat: ev.player, index: -1 };
    }
  }
  const family = tv.info ? tv.info.family : familyIds()[0] || "";
  const client = familyClient(family);
  const ctx = { events: tv.events, seat: tv.seat, legal: tv.legal() };
  const offer = client.offer ? client.offer(st.view, ctx) : null;
  if (lastDiscard) lastDiscard.index = (st.discards[lastDiscard.seat] || []).length - 1;
  const last = tv.events[tv.events.length - 1];
  const opp = 1 - tv.seat;
  if (last && last.kind === "draw" && last.player === opp && st.to_act === opp) oppDrew = true;
  const names = tv.info ? tv.info.seats.map(seatName) : ["?", "?"];
  const advice = tv.currentAdvice();
  const [verb, arg] = advice ? advice.split(":") : ["", ""];
  /** @type {BoardView} */
  const v = {
    family,
    me: tv.seat,
    names,
    state: st,
    open: false,
    ...familyBoard(family, st, ctx),
    offer: st.to_act === tv.seat && st.phase === "turn" && tv.legal().some((a) => openedBy(a.split(":")[0])) ? offer : null,
    lastDiscard,
    oppDrew,
    online: tv.online,
    ready: tv.ready,
    handNo: tv.handNo,
    timerEnd: tv.timerEnd,
    timerMine: st.to_act === tv.seat && tv.legal().length > 0,
    lastText: describeLast(tv.events, tv.seat, names),
    onTile: (i, tile) => tv.onTile(i, tile),
    selected: tv.selected,
    focus: tv.focus,
    advised: (verb === "discard" || verb === "ting") && arg ? arg : null,
  };
  // the tiles already given up in the choice under way (a selection mode's) stay in the hand, marked
  const given = st.to_act === tv.seat ? givenTiles(family, st) : [];
  v.given = given.length ? givenPositions(handOrder(v, st.hand, tv.seat).order, given) : new Set();
  const at = v.given;
  v.clickable = (tile, i) => tv.clickable(tile, i, at);
  // the ready hints: the waits of each discard that leaves the hand ready (hints.js)
  const ready = tv.hintsOn() && st.hints ? st.hints.discards : null;
  if (ready && Object.keys(ready).length) {
    v.tileHook = (el, tile) => {
      if (ready[tile]) attachReady(el, ready[tile]);
    };
  }
  return v;
}

/** A seat's name: the computer's by its level, in the player's language (电脑·高手).
 * @param {import("./api.js").SeatInfo} s @returns {string} */
export function seatName(s) {
  return s.level ? computerName(s.level) : s.bot ? t("computer") : s.name ? playerName(s.name) : "?";
}

/** The buttons of the legal actions and the open choice. @param {TableView} tv @returns {HTMLElement} */
function actionsEl(tv) {
  const box = h("div.actions", { role: "toolbar" });
  const advice = tv.currentAdvice();
  for (const b of tv.buttons()) {
    const hint = b.key === " " ? "Space" : b.key === "Enter" ? "Enter" : b.key.toUpperCase();
    const advised = advice !== null && (b.action === advice || (b.options || []).some((o) => o.action === advice) || (b.key === "t" && advice.startsWith("ting:")));
    const cls = [b.cls || "", advised ? "advised" : ""].join(" ").trim();
    const named = { "aria-label": b.label, "aria-keyshortcuts": hint || null }; // read as "碰", not "碰 P"
    const btn = h(`button.act${cls ? "." + cls.split(" ").join(".") : ""}`, { type: "button", "data-key": b.key, ...named, onclick: () => tv.press(b) }, b.label, hint ? h("kbd", null, hint) : null);
    box.append(btn);
  }
  if (tv.canAskHint()) {
    box.append(h("button.act.hint#btn-hint", { type: "button", "data-key": "?", title: t("hint_title"), onclick: () => tv.askHint() }, t("hint"), h("kbd", null, "?")));
  }
  if (advice !== null && tv.hintsOn() && tv.advice && tv.advice.reason) {
    box.append(h("span.hn-why", { role: "status" }, reasonText(tv.advice.reason)));
  }
  if (tv.hintsOn() && tv.state && !tv.end) {
    const held = heldWaitsEl(tv.state.hints);
    if (held) box.append(held);
  }
  if (tv.chooser && tv.chooser.options) {
    const lang = getLang();
    const pop = h("div.chooser", null, h("div.chooser-title", null, t("choose")));
    tv.chooser.options.forEach((o, i) => {
      const label = o.tiles.map((x) => tileName(x, lang)).join(" ");
      pop.append(h("button.option", { type: "button", "aria-label": label || null, "aria-keyshortcuts": String(i + 1), onclick: () => tv.act(o.action) }, h("kbd", null, String(i + 1)), ...o.tiles.map((x) => tileEl(x, { size: "s", lang }))));
    });
    box.append(pop);
  }
  return box;
}

/** The connection badge. @param {TableView} tv */
export function showConn(tv) {
  const el = document.getElementById("conn");
  if (!el) return;
  const text = { connecting: t("conn_wait"), open: t("conn_ok"), reconnecting: t("conn_wait"), closed: t("conn_off"), replaced: t("conn_replaced"), "logged-out": t("conn_off") }[tv.connState];
  el.className = `conn conn-${tv.connState}`;
  el.textContent = text;
  el.hidden = false;
}

/** The room's name (fetched once; the id until then). @param {TableView} tv @param {string} id @returns {string} */
function roomTitle(tv, id) {
  return roomIdName(id);
}

/** The speaker of the mute switch, with its sound waves or struck through (drawn, so no
 * emoji font is needed). */
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15 9a4 4 0 0 1 0 6M17.5 6.5a7.5 7.5 0 0 1 0 11" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const STRUCK = '<path d="M15 9l6 6M21 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

/** The mute switch: a speaker with waves (sounds on) or struck through (off); M. @param {TableView} tv @returns {HTMLElement} */
function soundSwitch(tv) {
  const off = muted();
  const label = t(off ? "sound_off" : "sound_on");
  const icon = h("span.sound-icon", { "aria-hidden": "true" });
  icon.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20">${SPEAKER}${off ? STRUCK : WAVES}</svg>`;
  return h(
    "button.ghost.sound#btn-sound",
    { type: "button", "aria-pressed": off ? "true" : "false", "aria-label": `${label} (M)`, title: `${t("sound_toggle")} (M)`, onclick: () => tv.toggleSound() },
    icon,
  );
}

/** Draw the table, playing the motions its new events owe (unless reduced motion is asked):
 * where they start is measured on the old board, then the new one is drawn.
 * @param {TableView} tv */
export function renderTable(tv) {
  const motions = tv.motions.splice(0);
  const moving = motions.length > 0 && motionWanted();
  const from = moving ? measure(tv.root, motions, tv.seat) : [];
  const held = focusOf(tv.root);
  drawTable(tv);
  refocus(tv.root, held);
  if (moving) animate(tv.root, motions, from, tv.seat);
}

/** Where the keyboard was on the board before a redraw: a tile of the hand (its position) or an
 * action button (its key) or another control of the table's own (its id).
 * @typedef {{tile: number}|{key: string}|{id: string}|null} Held */

/** @param {HTMLElement} root @returns {Held} */
function focusOf(root) {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !root.contains(el)) return null;
  if (el.matches(".hand-mine > .tile")) return { tile: Number(el.dataset.index) };
  if (el.matches(".actions button.act") && el.dataset.key !== undefined) return { key: el.dataset.key };
  return el.id ? { id: el.id } : null;
}

/** Put the keyboard back after a redraw: on the same tile position or the nearest one left, on
 * the same button, else (the button is gone: its move was made) on the hand's first playable
 * tile.  Without scrolling, and only when it was on the board.
 * @param {HTMLElement} root @param {Held} held */
function refocus(root, held) {
  if (!held) return;
  // the hand's own tiles: not the small ones inside a tile's ready hint (hints.js)
  const tiles = [...root.querySelectorAll(".hand-mine > .tile")].filter((el) => el instanceof HTMLElement);
  /** @type {Element|null|undefined} */
  let to = null;
  if ("id" in held) {
    to = document.getElementById(held.id);
    if (to instanceof HTMLElement && root.contains(to)) to.focus({ preventScroll: true });
    return;
  }
  if ("key" in held) to = [...root.querySelectorAll(".actions button.act")].find((b) => b instanceof HTMLElement && b.dataset.key === held.key);
  else if (tiles.length) to = tiles[Math.min(Math.max(held.tile, 0), tiles.length - 1)];
  if (!to) to = root.querySelector(".hand-mine > .tile.can") || tiles[0];
  if (to instanceof HTMLElement) to.focus({ preventScroll: true });
}

/**
 * The result as said to a screen reader: the settlement's title, who won and how, and the
 * player's change of score.
 * @param {TableView} tv @param {any} r the settlement's result @returns {string}
 */
export function resultText(tv, r) {
  const me = tv.seat;
  const names = tv.info ? tv.info.seats.map(seatName) : [];
  /** @type {string[]} */
  const parts = [];
  if (r.kind === "win") {
    parts.push(t(r.winner === me ? "s_win" : "s_lose"));
    const who = r.winner === me ? t("you") : names[r.winner] || t("opponent");
    if (r.how) parts.push(`${who} · ${t("s_type")}: ${winTypeText(tv.info ? tv.info.family : "", String(r.how))}.`);
  } else parts.push(t(r.kind === "abort" ? "s_abort" : "s_draw"));
  if (Array.isArray(r.deltas)) parts.push(t("ann_score", change(Number(r.deltas[me]) || 0)));
  return parts.join(" ");
}

/** @param {TableView} tv */
function drawTable(tv) {
  showConn(tv);
  const root = tv.root;
  root.replaceChildren();
  const top = h(
    "div.table-top",
    null,
    h("span.table-title", null, tv.info ? `${familyName(tv.info.family)}${tv.info.room ? " · " + roomTitle(tv, tv.info.room) : ""}` : ""),
    tv.info && tv.info.invite ? h("span.invite", null, t("invite_is", tv.info.invite)) : null,
    tv.watchers ? h("span.watchers", { role: "status" }, t("watch_count", tv.watchers)) : null,
    tv.info ? hintSwitchEl(tv.hintsOn(), () => tv.toggleHints()) : null,
    tv.state && !tv.closedMsg && tv.connState !== "replaced" ? tv.chat.buttonEl() : null,
    soundSwitch(tv),
    h("button.ghost.leave", { type: "button", onclick: () => tv.leave() }, t("leave")),
  );
  root.append(top);
  if (tv.storeRetrying) root.append(h("p.panel.store-retrying", { role: "status" }, t("store_retrying")));
  /** @param {string} [next] */
  const exit = (next) => {
    tv.destroy();
    tv.onExit(undefined, next);
  };
  if (tv.connState === "replaced") {
    root.append(replacedEl(() => exit()));
    return;
  }
  if (tv.closedMsg && tv.closedMsg.code) {
    root.append(closedEl(tv.closedMsg, tv.seat, exit));
    // an escape closes the table after its settlement: that stays over the notice, with both
    // hands, what each player received and a new search
    if (tv.end && tv.state && tv.closedMsg.code === "escaped") root.append(settleEl(tv, tv.end, tv.view(), exit, true));
    return;
  }
  if (tv.closedReason !== null) {
    root.append(h("div.panel.closed", null, h("p", null, t("closed", tv.closedReason)), h("button.primary", { type: "button", onclick: () => exit() }, t("back_lobby"))));
    return;
  }
  if (!tv.state) {
    const waiting = tv.info && tv.info.seats.some((s) => !s.name) ? t("waiting_opponent") : t("waiting_start");
    root.append(h("div.panel.waiting", null, h("div.spinner"), h("p", null, waiting), tv.info && tv.info.invite ? h("p.big-code", null, tv.info.invite) : null));
    return;
  }
  const v = tv.view();
  const trusteeOn = tv.state.trustee[tv.seat];
  const asked = promptOf(tv);
  announcePrompt(asked, tv.state.to_act !== tv.seat, tv.buttons().map((b) => b.label));
  v.actions = actionsEl(tv);
  v.prompt = promptNode(tv);
  v.trustee = h(
    `button.switch${trusteeOn ? ".on" : ""}`,
    { type: "button", role: "switch", "aria-checked": trusteeOn ? "true" : "false", onclick: () => tv.toggleTrustee(), title: "A" },
    h("span.knob"),
    t("trustee"),
  );
  root.append(boardEl(v));
  tv.chat.place(root);
  const picker = tv.chat.pickerEl();
  if (picker) top.append(picker);
  if (tv.blocked()) {
    const move = tv.pending || tv.inflight;
    root.append(overlayEl(tv.connState !== "open", move ? moveLabel(move.action) : null, tv.rejoin.active));
  }
  root.append(h("p.keys", null, t("keys")));
  if (tv.end) root.append(settleEl(tv, tv.end, v, exit, false));
}

/** The settlement of the hand just ended; after an escape (``closed``) it offers a new search in
 * the same room instead of the next hand.
 * @param {TableView} tv @param {any} end the settlement event @param {BoardView} v
 * @param {(next?: string) => void} exit @param {boolean} closed @returns {HTMLElement} */
function settleEl(tv, end, v, exit, closed) {
  const game = tv.game;
  const room = tv.info && tv.info.room ? tv.info.room : null;
  const kind = tableKind(tv.info ? tv.info.kind : null); // a family's own kind of table
  return settlementEl({
    end,
    me: tv.seat,
    family: v.family,
    names: v.names,
    options: tv.info ? tv.info.options : {},
    streak: v.state.streak || 0,
    marks: v.marks,
    waiting: tv.readySent,
    opponentReady: tv.ready[1 - tv.seat],
    closed,
    onAgain: closed ? () => exit(room ? `#/quick/${encodeURIComponent(room)}` : undefined) : null,
    onNext: kind ? () => tv.backTo(kind.back) : () => tv.nextHand(),
    onLeave: closed ? null : () => tv.leave(), // a closed table's notice has its own way out
    onReplay: game === null ? null : () => { location.hash = `#/replay/${game}`; },
    extra: tv.hintsOn() && !closed ? settleReview(tv) : null,
  });
}

/** 大师's review at the settlement: the button until it is asked, then the review, its share
 * link and the table session's summary (over the hands reviewed here).
 * @param {import("./table.js").TableView} tv @returns {HTMLElement} */
function settleReview(tv) {
  const msg = tv.review;
  if (!msg) return reviewAsk(tv.reviewAsked, () => tv.askReview());
  const session = sessionText([...tv.sessionReviews.values()], tv.reviewUnit);
  return reviewPanel(msg.review, { unit: tv.reviewUnit, share: shareLink(msg.game, msg.seat), session, hindsight: msg.hindsight });
}
