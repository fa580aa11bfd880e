// A registered player's settings follow his account (GET / PUT /me/settings); a guest's stay in
// his browser.  Once after he signs in, the account's settings are taken over this browser's
// (an account that has kept none takes this browser's instead).  Every change is remembered by
// the browser at once (settings.js) and sent to the account a moment later, changes close
// together in one request; one that could not be sent is marked unsaved in this browser and
// sent at his next change or sign-in here, so the browser's choice is never lost.

import { api, token } from "./api.js";
import { adoptChoices, panelChoices } from "./settings.js";

/** @typedef {import("./api.js").User} User */
/** @typedef {import("./settings.js").Choices} Choices */

/** How long a change waits for the next before the panel is sent (ms). */
const QUIET_MS = 400;
/** The id of the account whose changes this browser could not send yet. */
const UNSAVED_KEY = "erren.settings.unsaved";

/** The registered player signed in here whose settings are kept with his account. @type {User|null} */
let account = null;
/** The account whose settings were taken (once per sign-in): its id. @type {number|null} */
let loadedFor = null;
let timer = 0;
let sending = false;
let again = false;

/** @returns {string|null} */
function unsaved() {
  try {
    return localStorage.getItem(UNSAVED_KEY);
  } catch {
    return null;
  }
}

/** @param {number|null} id the account with changes not sent yet (null: none) */
function markUnsaved(id) {
  try {
    if (id === null) localStorage.removeItem(UNSAVED_KEY);
    else localStorage.setItem(UNSAVED_KEY, String(id));
  } catch {
    /* storage refused: the next change sends the panel anyway */
  }
}

/** Whether the settings are kept with the account signed in (a registered player). @returns {boolean} */
export function keptWithAccount() {
  return account !== null;
}

/**
 * The player signed in (or the page opened signed in): a registered player's account settings
 * are taken over this browser's, once per sign-in; a guest keeps this browser's.  Resolves
 * whether anything shown changed (the screen is drawn after it, so nothing needs redrawing).
 * @param {User} user @returns {Promise<boolean>}
 */
export async function signedIn(user) {
  if (user.guest) {
    signedOut();
    return false;
  }
  account = user;
  if (loadedFor === user.id) return false;
  loadedFor = user.id;
  const mine = unsaved();
  if (mine !== null && mine !== String(user.id)) markUnsaved(null); // another account's
  if (mine === String(user.id)) {
    send();
    return false;
  }
  try {
    const kept = await api("GET", "/me/settings");
    // signed out meanwhile, or a change made meanwhile (it is being sent): this browser's hold
    if (account !== user || unsaved() === String(user.id)) return false;
    if (!kept.updated_at) {
      send(); // a new account starts with this browser's settings
      return false;
    }
    return adoptChoices(/** @type {Choices} */ (kept.settings));
  } catch {
    return false; // unreachable: this browser's settings hold, the next change is sent
  }
}

/** The player signed out: his later changes stay in this browser (an unsent one is sent at his
 * next sign-in here). */
export function signedOut() {
  account = null;
  loadedFor = null;
  window.clearTimeout(timer);
  timer = 0;
}

/** A setting changed (already remembered by the browser): send the panel to the account soon. */
export function settingsChanged() {
  if (!account) return;
  markUnsaved(account.id);
  window.clearTimeout(timer);
  timer = window.setTimeout(send, QUIET_MS);
}

/** Send the whole panel now (one request at a time; a change meanwhile sends it again). */
async function send() {
  window.clearTimeout(timer);
  timer = 0;
  const who = account;
  if (!who) return;
  if (sending) {
    again = true;
    return;
  }
  sending = true;
  try {
    await api("PUT", "/me/settings", panelChoices());
    if (account === who && !timer && !again) markUnsaved(null);
  } catch {
    /* kept in this browser and marked unsaved: sent again at the next change or sign-in */
  } finally {
    sending = false;
    if (again) {
      again = false;
      send();
    }
  }
}

// a change still waiting when the page goes away is sent on the way out
window.addEventListener("pagehide", () => {
  const tok = token();
  if (!timer || !account || !tok) return;
  window.clearTimeout(timer);
  timer = 0;
  const headers = { Authorization: `Bearer ${tok}`, "Content-Type": "application/json" };
  fetch("/me/settings", { method: "PUT", keepalive: true, headers, body: JSON.stringify(panelChoices()) }).catch(() => {});
});
