// The lobby: log in / register / guest, the bean balance, families and room tiers with their
// entry limits, quick match (its search: search.js), private tables with an invite code, play
// the computer.

import { ApiError, api, setToken } from "./api.js";
import { h, num, toast } from "./dom.js";
import { LEVELS, failure, levelName, playerName, stakeText, t } from "./i18n.js";
import { RELIEF_BELOW, reliefEl, roomName, showBalance } from "./notices.js";
import { clearSearch, savedSearch, search } from "./search.js";
import { familyBlurb, familyCards, familyIds, familyName } from "./families.js";
import { screenToken } from "./route.js";

/** @typedef {import("./api.js").User} User */
/** @typedef {import("./api.js").Room} Room */

/**
 * @param {HTMLElement} root
 * @param {(user: User) => void} onLogin
 * @param {boolean} [registering] a guest came to register: no guest button, Register first
 */
export function loginScreen(root, onLogin, registering = false) {
  const name = /** @type {HTMLInputElement} */ (h("input#login-name", { autocomplete: "username", placeholder: t("name"), "aria-label": t("name"), maxlength: 32 }));
  const pass = /** @type {HTMLInputElement} */ (h("input#login-pass", { type: "password", autocomplete: "current-password", placeholder: t("password"), "aria-label": t("password") }));
  const err = h("p.error", { role: "alert" });
  /** @param {string} path @param {unknown} [body] */
  const go = async (path, body) => {
    err.textContent = "";
    try {
      const res = await api("POST", path, body);
      setToken(res.token);
      onLogin(res.user);
    } catch (e) {
      err.textContent = failure(e);
    }
  };
  const form = h(
    "form.auth",
    { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go("/auth/login", { name: name.value, password: pass.value }); } },
    name,
    pass,
    h("div.row", null,
      h("button.primary#btn-login", { type: "submit" }, t("login")),
      h("button#btn-register", { type: "button", onclick: () => go("/auth/register", { name: name.value, password: pass.value }) }, t("register")),
    ),
    err,
  );
  root.replaceChildren(
    h(
      "div.welcome",
      null,
      h("div.hero", null, h("h1", null, "二人麻将 ", h("small", null, "erren")), h("p", null, registering ? t("account_needed") : t("welcome_intro"))),
      h("div.panel.auth-panel", null,
        registering ? h("h2", null, t("register_title")) : h("button.primary.big#btn-guest", { type: "button", onclick: () => go("/auth/guest") }, t("guest")),
        registering ? null : h("div.or", null, "—"),
        form,
      ),
    ),
  );
  if (registering) name.focus();
}

/**
 * The four levels of the computer as a radio group; the chosen one is marked.
 * @param {string} chosen @param {(level: string) => void} onChoose @returns {HTMLElement}
 */
function levelChooser(chosen, onChoose) {
  const group = h("div.levels", { role: "radiogroup", "aria-label": t("level") });
  for (const lv of LEVELS) {
    const on = lv === chosen;
    group.append(
      h(
        `button.level${on ? ".on" : ""}`,
        { type: "button", role: "radio", "aria-checked": on ? "true" : "false", "data-level": lv, title: t(`lv_${lv}_d`), onclick: () => onChoose(lv) },
        h("b", null, levelName(lv)),
        h("small", null, t(`lv_${lv}_d`)),
      ),
    );
  }
  return h("div.level-chooser", null, h("span.muted", null, t("level")), group);
}

/**
 * @param {HTMLElement} root
 * @param {User} user
 * @param {(table: string) => void} onTable
 * @param {string|null} [quickRoom] start a quick match in this room at once (offered when a
 *   table closed on the entry limits)
 */
export async function lobbyScreen(root, user, onTable, quickRoom = null) {
  const current = screenToken();
  const [fams, rooms, bal, mine] = await Promise.all([
    api("GET", "/families"),
    api("GET", "/rooms"),
    api("GET", "/me/balance"),
    api("GET", "/me/table").catch(() => null),
  ]);
  const balance = Number(bal.balance);
  const beans = document.getElementById("beans");
  if (beans) showBalance(beans, balance);
  /** @type {string[]} */
  const families = fams.families;
  let family = localStorage.getItem("erren.family") || familyIds()[0];
  if (!families.includes(family)) family = families[0];
  let level = localStorage.getItem("erren.level") || "normal";
  if (!LEVELS.includes(level)) level = "normal";
  /** the server said bean rooms need an account (403 account-needed), or this is a guest */
  let accountNeeded = user.guest;

  /** @param {() => Promise<any>} call */
  const sit = async (call) => {
    try {
      const seat = await call();
      onTable(seat.table);
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") return;
      if (e instanceof ApiError && e.code === "cancelled") return;
      if (e instanceof ApiError && e.code === "account-needed") accountNeeded = true;
      else toast(failure(e), "error");
      draw();
    }
  };

  /** @param {Room} r */
  const quick = (r) => {
    search.start(r.id, user.id);
  };

  const draw = () => {
    const famTabs = h("div.fam-tabs", { role: "tablist" });
    for (const f of families) {
      famTabs.append(
        h(
          `button.fam${f === family ? ".on" : ""}`,
          { type: "button", role: "tab", "aria-selected": f === family ? "true" : "false", "data-family": f, onclick: () => { family = f; localStorage.setItem("erren.family", f); draw(); } },
          h("b", null, familyName(f)),
          h("small", null, familyBlurb(f)),
        ),
      );
    }
    /** @type {Room[]} */
    const mineRooms = rooms.filter((/** @type {Room} */ r) => r.family === family);
    const roomList = h("div.rooms");
    for (const r of mineRooms) {
      const needs = accountNeeded && r.account_needed !== false;
      const inLimits = balance >= r.entry_min && balance <= r.entry_max;
      const ok = inLimits && !needs;
      const why = needs ? t("room_account") : inLimits ? t("quick") : t("outside");
      roomList.append(
        h(
          `button.room${ok ? "" : ".locked"}`,
          { type: "button", disabled: !ok, "data-room": r.id, title: why, onclick: () => quick(r) },
          h("b", null, roomName(r)),
          h("span.stake", null, stakeText(r.stake, r.unit)),
          h("span.limits", null, t("entry", num(r.entry_min), r.entry_max >= 1e9 ? "∞" : num(r.entry_max))),
          h("span.go", null, ok ? t("quick") + " →" : why),
        ),
      );
    }
    const accountNote = accountNeeded
      ? h("div.account-needed", { role: "note" },
          h("p", null, t("account_needed")),
          h("a.button.primary#btn-account-register", { href: "#/register" }, t("account_register")),
        )
      : null;
    const relief = !user.guest && balance < RELIEF_BELOW ? reliefEl(() => reload()) : null;
    const code = /** @type {HTMLInputElement} */ (h("input#invite-code", { placeholder: t("join_code"), "aria-label": t("join_code"), maxlength: 12, autocapitalize: "characters" }));
    root.replaceChildren(
      h(
        "div.lobby",
        null,
        mine ? h("div.panel.continue", null, h("span", null, t("continue_game")), h("button.primary#btn-continue", { type: "button", onclick: () => onTable(mine.table) }, t("continue"))) : null,
        h("section.panel", null, h("h2", null, t("family")), famTabs),
        h(
          "div.cards",
          null,
          h("section.panel.card-computer", null,
            h("h2", null, t("vs_computer")),
            h("p", null, t("vs_computer_d")),
            levelChooser(level, (lv) => { level = lv; localStorage.setItem("erren.level", lv); draw(); }),
            h("button.primary.big#btn-computer", { type: "button", onclick: () => sit(() => api("POST", "/tables/vs-computer", { family, level })) }, t("vs_computer")),
          ),
          h("section.panel.card-private", null,
            h("h2", null, t("private")),
            h("p", null, t("private_d")),
            h("button#btn-private", { type: "button", onclick: () => sit(() => api("POST", "/tables/private", { family })) }, t("create_private")),
            h("form.row", { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); sit(() => api("POST", "/tables/join", { invite: code.value.trim().toUpperCase() })); } }, code, h("button#btn-join", { type: "submit" }, t("join"))),
          ),
          ...familyCards(),
        ),
        relief,
        h("section.panel.rooms-panel", null, h("h2", null, t("rooms"), " · ", familyName(family)), accountNote, roomList),
        h("p.links", null, h("a#link-history", { href: "#/games" }, t("history")), " · ", h("a#link-friends", { href: "#/friends" }, t("friends")), " · ", h("a#link-drills", { href: `#/drills/${family}` }, t("dr_link")), " · ", h("span.muted", null, playerName(user.name))),
      ),
    );
  };

  /** The search's panel; `note` says why it goes on (`no-show`, `lost`). @param {string} note */
  const drawWaiting = (note) => {
    const said = { "no-show": t("search_no_show"), lost: t("search_lost") }[note] || "";
    root.replaceChildren(
      h("div.panel.waiting", null,
        said ? h("p.search-note", { role: "status" }, said) : null,
        h("div.spinner"), h("p", null, t("waiting_match")),
        h("button", { type: "button", onclick: () => { search.cancel(); draw(); } }, t("cancel"))),
    );
  };
  // the lobby draws only while it is the screen shown (route.js): a search goes on behind
  // another screen, unseen, and a slow answer never draws over a screen opened meanwhile
  search.view = {
    waiting: (note) => { if (current()) drawWaiting(note); },
    seated: onTable,
    failed: (e) => {
      if (e instanceof ApiError && e.code === "account-needed") accountNeeded = true;
      else if (!(e instanceof ApiError && e.code === "cancelled")) toast(failure(e), "error");
      if (current()) draw();
    },
  };
  const reload = () => {
    window.setTimeout(() => { if (current()) lobbyScreen(root, user, onTable).catch(() => {}); }, 1500);
  };
  const wanted = quickRoom ? rooms.find((/** @type {Room} */ r) => r.id === quickRoom) : null;
  const saved = savedSearch();
  const kept = saved && !mine && (saved.user === null || saved.user === user.id) && rooms.some((/** @type {Room} */ r) => r.id === saved.room) ? saved : null;
  if (search.active) {
    if (current()) drawWaiting(search.note); // this tab searches already (the screen was drawn again)
  }
  else if (kept) search.start(kept.room, user.id, true, kept.note); // a reload, or a pairing dissolved
  else if (wanted && !accountNeeded && balance >= wanted.entry_min && balance <= wanted.entry_max) quick(wanted);
  else {
    if (saved) clearSearch();
    if (current()) draw(); // not over a screen opened while the lobby's requests were answered
  }
}
