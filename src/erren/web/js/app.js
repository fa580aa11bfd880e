// The single page: header (language, connection, beans, user), then by the address
// #/ (lobby), #/table/ID, #/watch/ID (观战), #/games (history), #/profile (the player's page), #/friends, #/replay/ID[?review=SEAT[&step=N]]
// (shareable), #/drills[/FAMILY[/mine]] (何切る drills), #/<name> (a family's own screen: families.js `screens`).  Each new screen bumps
// the route's generation (route.js): a screen drawn after a wait draws only while it is current.

import { ApiError, api, setToken, token } from "./api.js";
import { tickTimers } from "./board.js";
import { $, clearAllToasts, h } from "./dom.js";
import { failure, getLang, onLangChange, otherLang, playerName, setLang, t } from "./i18n.js";
import { lobbyScreen, loginScreen } from "./lobby.js";
import { profileScreen } from "./profile.js";
import { historyScreen, replayScreen } from "./replay.js";
import { loadNames } from "./settle.js";
import { familyIds, familyScreen, loadFamilies } from "./families.js";
import { WatchView } from "./watch.js";
import { newRoute } from "./route.js";
import { closeRules, openRules, parseRulesHash, rulesHref } from "./rules.js";
import { closeTutorial, openTutorial, tutorialOffer } from "./tutorial.js";
import { openSettings } from "./settings.js";
import { keptWithAccount, settingsChanged, signedIn, signedOut } from "./accountsettings.js";
import { TableView } from "./table.js";
import { showBalance } from "./notices.js";
import { friendsScreen, startFriends, stopFriends } from "./friends.js";
import { drillsScreen } from "./drills.js";

/** @typedef {import("./api.js").User} User */

/** @type {User|null} */
let user = null;
/** @type {TableView|null} */
let table = null;
/** @type {(() => void)|null} */
let stopReplay = null;
/** The watched table's socket (#/watch/ID): closed when another screen opens. @type {(() => void)|null} */
let stopWatch = null;

const main = $("#app");

function header() {
  const bar = $("#header");
  /** @type {HTMLElement[]} */
  const items = [h("a.brand", { href: "#/" }, h("span.logo", { "aria-hidden": "true" }), h("span", null, t("title"))), h("span.spacer"), h("span#conn.conn", { hidden: true })];
  // a guest has no beans to spend (bean rooms are for registered players): no balance shown
  if (user && !user.guest) items.push(h("a#beans.beans", { href: "#/profile", title: t("pf_title") }, ""));
  if (user) items.push(h("a.user#link-profile", { href: "#/profile", title: t("pf_title") }, playerName(user.name)));
  items.push(h("button.ghost#rules", { type: "button", onclick: () => { location.hash = rulesHref(table && table.info ? table.info.family : familyIds()[0] || ""); } }, t("rules_rules")));
  items.push(settingsButton());
  // the switch names the other language in that language
  items.push(h("button.ghost#lang", { type: "button", lang: otherLang(), onclick: () => { setLang(getLang() === "zh" ? "en" : "zh"); settingsChanged(); route(); } }, t("lang_switch")));
  if (user) items.push(h("button.ghost#logout", { type: "button", onclick: logout }, t("logout")));
  bar.replaceChildren(...items);
  if (user && !user.guest) refreshBeans();
}

const GEAR = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" fill-rule="evenodd" d="M10.3 2h3.4l.5 2.6 1.6.7 2.2-1.5 2.4 2.4-1.5 2.2.7 1.6 2.6.5v3.4l-2.6.5-.7 1.6 1.5 2.2-2.4 2.4-2.2-1.5-1.6.7-.5 2.6h-3.4l-.5-2.6-1.6-.7-2.2 1.5-2.4-2.4 1.5-2.2-.7-1.6L2 13.7v-3.4l2.6-.5.7-1.6-1.5-2.2 2.4-2.4 2.2 1.5 1.6-.7zM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z"/></svg>';

/** The header's 设置 button: a gear named for screen readers; the panel's changes redraw what
 * they touch (the words: the whole screen; the table's play: the table). @returns {HTMLElement} */
function settingsButton() {
  const btn = h("button.ghost.icon#btn-settings", { type: "button", "aria-label": t("settings"), title: t("settings"), "aria-haspopup": "dialog" });
  btn.innerHTML = GEAR;
  btn.addEventListener("click", () => openSettings((what) => {
    settingsChanged();
    if (what === "lang") route().catch(showError);
    else if (table) {
      table.autoAnswer();
      table.render();
    }
  }, keptWithAccount()));
  return btn;
}

/** Show the balance in the header (again: after every settlement, the table says so). */
function refreshBeans() {
  api("GET", "/me/balance")
    .then((b) => {
      const el = document.getElementById("beans");
      if (el) showBalance(el, Number(b.balance));
    })
    .catch(() => {});
}
window.addEventListener("erren:settled", () => { if (user && !user.guest) refreshBeans(); });

async function logout() {
  stopFriends();
  signedOut();
  await api("POST", "/auth/logout").catch(() => {});
  setToken(null);
  user = null;
  location.hash = "#/";
  route();
}

function leaveScreens() {
  if (table) {
    table.destroy();
    table = null;
  }
  if (stopReplay) {
    stopReplay();
    stopReplay = null;
  }
  if (stopWatch) {
    stopWatch();
    stopWatch = null;
  }
}

// The rules drawer and the guided hand open over the current screen (a table keeps running):
// their addresses (#rules/..., #tutorial) do not re-route; closing goes back to the screen's.
let screenHash = "#/";
let routed = false;

/** @returns {boolean} whether the address was an overlay's */
function overlay() {
  const link = parseRulesHash(location.hash);
  const tutorial = location.hash.replace(/^#\/?/, "") === "tutorial";
  const back = () => {
    closeRules();
    closeTutorial();
    location.hash = screenHash;
  };
  if (link) {
    closeTutorial();
    openRules(link, back, () => { location.hash = "#tutorial"; }).catch(showError);
    return true;
  }
  if (tutorial) {
    closeRules();
    openTutorial(back).catch(showError);
    return true;
  }
  closeRules();
  closeTutorial();
  return false;
}

async function route() {
  if (overlay()) {
    if (routed) {
      header();
      return;
    }
  } else {
    screenHash = location.hash || "#/";
  }
  routed = true;
  const hash = (parseRulesHash(location.hash) || location.hash.replace(/^#\/?/, "") === "tutorial" ? screenHash : location.hash).replace(/^#/, "") || "/";
  const parts = hash.split("/").filter(Boolean);
  if (table && parts[0] === "table" && parts[1] === table.tableId) {
    header();
    table.render();
    return;
  }
  leaveScreens();
  const current = newRoute();
  // a screen that failed after another was opened says nothing over it
  await openScreen(parts, current).catch((err) => {
    if (current()) throw err;
  });
}

/** Open the screen of the address's `parts`; `current` is false once another was opened.
 * @param {string[]} parts @param {() => boolean} current */
async function openScreen(parts, current) {
  if (!user && token()) {
    try {
      user = await api("GET", "/me");
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setToken(null);
    }
  }
  // a registered player's settings follow his account: taken once, before the screen is drawn
  if (user) await signedIn(user);
  // a registered player's friends socket: presence and invites on every page (friends.js)
  if (user) startFriends(user, (id) => { location.hash = `#/table/${id}`; });
  if (!current()) return; // another screen was opened meanwhile
  header();
  document.body.dataset.screen = parts[0] || "lobby";
  if (parts[0] === "replay" && parts[1]) {
    // #/replay/ID?review=SEAT: the replay with that seat's review (review.js); &step=N: opened
    // at the position of the record's action N (a drill's)
    const [id, query] = parts[1].split("?");
    const params = new URLSearchParams(query || "");
    const seat = params.get("review");
    const step = Number(params.get("step") || "");
    stopReplay = replayScreen(main, Number(id), seat === "0" || seat === "1" ? Number(seat) : null, Number.isInteger(step) && step > 0 ? step : null);
    return;
  }
  if (parts[0] === "drills") {
    // open to anyone (the server's corpus); #/drills/F/mine: a registered player's own
    await drillsScreen(main, parts[1], parts[2] === "mine", user);
    return;
  }
  if (!user || parts[0] === "register") {
    const registering = parts[0] === "register";
    loginScreen(main, (u) => {
      user = u;
      if (registering) location.hash = "#/";
      else route();
    }, registering && !!user);
    return;
  }
  if (parts[0] === "watch" && parts[1]) {
    const watching = new WatchView(main, parts[1], () => { location.hash = "#/"; });
    stopWatch = () => watching.stop();
    return;
  }
  if (parts[0] === "table" && parts[1]) {
    table = new TableView(main, parts[1], (reason, next) => {
      table = null;
      if (reason === "logged-out") {
        stopFriends();
        signedOut();
        setToken(null);
        user = null;
      }
      if (location.hash === (next || "#/") || (!next && location.hash === "")) route();
      else location.hash = next || "#/";
    });
    return;
  }
  const own = parts[0] ? familyScreen(parts[0]) : null;
  if (own) {
    await own(main, { current, toTable: (id) => { location.hash = `#/table/${id}`; } });
    return;
  }
  if (parts[0] === "profile") {
    await profileScreen(main);
    return;
  }
  if (parts[0] === "games") {
    await historyScreen(main);
    return;
  }
  if (parts[0] === "friends") {
    await friendsScreen(main, user, (id) => { location.hash = `#/table/${id}`; });
    return;
  }
  const me = user;
  const quickRoom = parts[0] === "quick" && parts[1] ? decodeURIComponent(parts.slice(1).join("/")) : null;
  await lobbyScreen(main, me, (id) => {
    location.hash = `#/table/${id}`;
  }, quickRoom);
  if (!current()) return;
  const offer = tutorialOffer(() => { location.hash = "#tutorial"; });
  if (offer) main.prepend(offer);
}

// a short toast is not translated: a language switch takes away those still showing
onLangChange(clearAllToasts);

// the rules drawer switched the language: the header follows (the screen under it on closing)
window.addEventListener("erren-lang", () => {
  settingsChanged();
  header();
});

window.addEventListener("hashchange", () => {
  route().catch(showError);
});

/** @param {unknown} err */
function showError(err) {
  main.replaceChildren(h("div.panel", null, h("p.error", null, failure(err)), h("a.button", { href: "#/" }, t("back_lobby"))));
}

window.setInterval(tickTimers, 250);
Promise.allSettled([loadNames(), loadFamilies()]).finally(() => route().catch(showError));

// for the browser tests and the curious: the live table
Object.defineProperty(window, "erren", { value: { get table() { return table; } } });
