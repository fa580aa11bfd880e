// Friends (#/friends): your friend code, add by name or code, requests to accept or refuse,
// friends with their presence (a dot and a word), invite a friend to a room (bean rooms too),
// block and unblock, recent opponents with an "add" button.  A registered player keeps one
// socket open on every page (`startFriends`): presence changes redraw the screen, an invite
// shows a toast with accept / decline wherever he is.

import { api, Connection } from "./api.js";
import { h, toast } from "./dom.js";
import { failure, onLangChange, playerName, roomIdName, t } from "./i18n.js";
import { familyName } from "./families.js";
import { rooms } from "./notices.js";
import { screenToken } from "./route.js";

/** @typedef {import("./api.js").User} User */
/** @typedef {import("./api.js").Room} Room */
/** @typedef {{id: number, name: string, since: string, state?: string|null, family?: string|null, table?: string|null, friend?: boolean|null}} Peer */
/** @typedef {{code: string, friends: Peer[], received: Peer[], sent: Peer[], blocked: Peer[], limits: Record<string, number>}} FriendsPage */
/** @typedef {{from: number, name: string, invite: string, table: string, room: string|null, family: string}} Invite */

/** @type {Connection|null} */
let social = null;
/** @type {(() => void)|null} redraws the friends screen while it is shown */
let redraw = null;
/** @type {(table: string) => void} */
let goTable = () => {};
/** @typedef {{inv: Invite, el: HTMLElement, timer: number}} ShownInvite */
/** How long an invite's toast stays (the server holds an invite as long). */
const INVITE_SHOWN_MS = 60000;
/** @type {ShownInvite|null} the invite on screen */
let invite = null;
/** @type {{inv: Invite, until: number}[]} the invites waiting behind it, oldest first */
let waiting = [];

/** The words of a presence. @param {Peer} p @returns {string} */
export function presenceText(p) {
  if (p.state === "table") return t("fr_at_table", p.family ? familyName(p.family) : "");
  if (p.state === "lobby") return t("fr_lobby");
  if (p.state === "watching") return t("fr_watching");
  return t("fr_offline");
}

/** Keep the friends socket open for a registered player (on every page).
 * @param {User} user @param {(table: string) => void} onTable */
export function startFriends(user, onTable) {
  goTable = onTable;
  if (user.guest || social) return;
  // on every welcome (the first, and each after the socket came back) the friends screen is
  // read again: a presence that changed while the socket was away is never pushed again
  social = new Connection(onSocial, () => {}, () => { if (redraw) redraw(); });
}

/** Close the friends socket (logout). */
export function stopFriends() {
  if (social) social.stop();
  social = null;
  waiting = [];
  if (invite) closeInvite(invite, false);
}

/** A message of the friends socket. @param {any} msg */
function onSocial(msg) {
  if (msg.type === "presence" || msg.type === "friends") {
    if (redraw) redraw();
  } else if (msg.type === "invite") {
    showInvite(/** @type {Invite} */ (msg));
  } else if (msg.type === "invite-over") {
    inviteOver(msg);
  } else if (msg.type === "invite-declined") {
    toast(t("fr_declined", playerName(msg.name)));
  }
}

/** The toast of a friend's invite, on any page.  An invite that comes while another is shown
 * waits behind it (the toast says how many wait) and shows when that one is answered or fades;
 * one already shown or waiting (held for a socket that was away and sent again when it is
 * back) changes nothing.
 * @param {Invite} inv */
function showInvite(inv) {
  if (known(inv.invite)) return;
  const until = Date.now() + INVITE_SHOWN_MS;
  if (invite) {
    waiting.push({ inv, until });
    fillInvite(invite);
    return;
  }
  openInvite(inv, until);
}

/** Whether the invite of `code` is on screen or waiting. @param {string} code */
function known(code) {
  return invite?.inv.invite === code || waiting.some((w) => w.inv.invite === code);
}

/** The table of an invite no longer waits for the player: its toast goes (the next invite
 * shows), or it leaves the queue.  He took the seat himself (on this page or another): every
 * invite goes, he is seated; else he is told, if that invite was his to see.
 * @param {{name: string, invite: string, seated: boolean}} msg */
function inviteOver(msg) {
  const had = known(msg.invite);
  waiting = msg.seated ? [] : waiting.filter((w) => w.inv.invite !== msg.invite);
  if (invite && (msg.seated || invite.inv.invite === msg.invite)) closeInvite(invite, !msg.seated);
  else if (invite) fillInvite(invite);
  if (had && !msg.seated) toast(t("fr_invite_over", playerName(msg.name)));
}

/** Put the toast of `inv` on screen until `until` (ms since the epoch).
 * @param {Invite} inv @param {number} until */
function openInvite(inv, until) {
  const el = h("div#invite-toast.invite-toast", { role: "alertdialog", "data-invite": inv.invite });
  const shown = { inv, el, timer: window.setTimeout(() => closeInvite(shown), Math.max(0, until - Date.now())) };
  invite = shown;
  fillInvite(shown);
  document.body.append(el);
}

/** Take the toast away; the next invite still fresh shows, unless `next` is false.
 * @param {ShownInvite} shown @param {boolean} [next] */
function closeInvite(shown, next = true) {
  if (invite !== shown) return;
  window.clearTimeout(shown.timer);
  shown.el.remove();
  invite = null;
  if (next) showNextInvite();
}

function showNextInvite() {
  waiting = waiting.filter((w) => w.until > Date.now());
  const w = waiting.shift();
  if (w) openInvite(w.inv, w.until);
}

/** The words and buttons of an invite's toast, in the language of the moment.
 * @param {ShownInvite} shown */
function fillInvite(shown) {
  const { inv, el } = shown;
  const where = `${familyName(inv.family)} · ${inv.room ? roomIdName(inv.room) : t("private")}`;
  el.setAttribute("aria-label", t("fr_invited_title"));
  const more = waiting.length ? [h("p.invite-more", null, t("fr_more_invites", waiting.length))] : [];
  el.replaceChildren(
    h("p", null, t("fr_invited", playerName(inv.name), where)),
    ...more,
    h("div.row", null,
      h("button.primary#btn-invite-accept", { type: "button", onclick: async () => {
        closeInvite(shown, false);
        try {
          const seat = await api("POST", "/tables/join", { invite: inv.invite });
          waiting = [];  // seated: the others cannot be taken now
          goTable(seat.table);
        } catch (e) {
          toast(failure(e), "error");
          showNextInvite();
        }
      } }, t("fr_accept")),
      h("button#btn-invite-decline", { type: "button", onclick: () => {
        closeInvite(shown);
        api("POST", `/friends/${inv.from}/decline`, { invite: inv.invite }).catch(() => {});
      } }, t("fr_decline")),
    ),
  );
}

// the player switched the language: an invite's toast still on screen says it anew
onLangChange(() => {
  if (invite) fillInvite(invite);
});

/** A row of the lists: the name, what it shows, its buttons.
 * @param {Peer} p @param {(HTMLElement|string|null)[]} info @param {(HTMLElement|null)[]} buttons */
function row(p, info, buttons) {
  return h("li.fr-row", { "data-user": String(p.id) },
    h("span.fr-name", null, ...info, playerName(p.name)),
    h("span.fr-actions", null, ...buttons),
  );
}

/**
 * The friends screen.
 * @param {HTMLElement} root @param {User} user @param {(table: string) => void} onTable
 */
export async function friendsScreen(root, user, onTable) {
  const current = screenToken();
  if (user.guest) {
    root.replaceChildren(h("div.panel.friends", null, h("h2", null, t("fr_title")), h("p", null, t("fr_guest")), h("a.button.primary", { href: "#/register" }, t("account_register"))));
    return;
  }
  /** @type {Room[]} */
  const roomList = await rooms().catch(() => []);
  /** @type {number|null} the friend whose invite chooser is open */
  let inviting = null;
  let room = localStorage.getItem("erren.invite-room") || (roomList[0] ? roomList[0].id : "");

  /** @param {() => Promise<unknown>} call */
  const act = async (call) => {
    try {
      await call();
    } catch (e) {
      toast(failure(e), "error");
    }
    await draw();
  };

  /** @param {Peer} f */
  const chooser = (f) => {
    const select = /** @type {HTMLSelectElement} */ (h("select#invite-room", { "aria-label": t("fr_room") }));
    for (const r of roomList) select.append(h("option", { value: r.id, selected: r.id === room }, `${familyName(r.family)} · ${roomIdName(r.id)}`));
    for (const fam of new Set(roomList.map((r) => r.family))) {
      select.append(h("option", { value: `private:${fam}`, selected: room === `private:${fam}` }, `${familyName(fam)} · ${t("private")}`));
    }
    select.addEventListener("change", () => { room = select.value; localStorage.setItem("erren.invite-room", room); });
    const send = async () => {
      const body = room.startsWith("private:") ? { family: room.slice(8) } : { room };
      try {
        const seat = await api("POST", `/friends/${f.id}/invite`, body);
        toast(t("fr_invite_sent", playerName(f.name)));
        onTable(seat.table);
      } catch (e) {
        toast(failure(e), "error");
      }
    };
    return h("div.fr-invite", null, select, h("button.primary#btn-invite-send", { type: "button", onclick: send }, t("fr_invite")));
  };

  const draw = async () => {
    /** @type {FriendsPage} */
    const page = await api("GET", "/friends");
    /** @type {Peer[]} */
    const recent = await api("GET", "/friends/recent").catch(() => []);
    if (!current()) return;
    // a live update redraws the page: what the player is typing, and his focus, stay
    const typing = /** @type {HTMLInputElement|null} */ (root.querySelector("#friend-who"));
    const who = /** @type {HTMLInputElement} */ (h("input#friend-who", { placeholder: t("fr_who"), "aria-label": t("fr_who"), maxlength: 40 }));
    if (typing) who.value = typing.value;
    const keepFocus = typing !== null && document.activeElement === typing;
    const add = (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = who.value.trim();
      if (!text) return;
      act(async () => {
        const res = await api("POST", "/friends/requests", { who: text });
        who.value = "";
        toast(res.outcome === "friends" ? t("fr_now_friends", playerName(res.user.name)) : t("fr_sent", playerName(res.user.name)));
      });
    };
    const friends = h("ul.fr-list#friend-list");
    for (const f of page.friends) {
      const state = f.state || "offline";
      friends.append(row(f, [h(`span.dot.dot-${state}`, { "aria-hidden": "true" })], [
        h("span.fr-state", { "data-state": state }, presenceText(f)),
        // at a table: watch it (whether he may is the players' choice, answered there)
        state === "table" && f.table ? h("a.button.small.btn-watch", { href: `#/watch/${encodeURIComponent(f.table)}` }, t("fr_watch")) : null,
        h("button.small.btn-invite", { type: "button", onclick: () => { inviting = inviting === f.id ? null : f.id; draw(); } }, t("fr_invite")),
        h("button.small.ghost.btn-remove", { type: "button", onclick: () => act(() => api("DELETE", `/friends/${f.id}`)) }, t("fr_remove")),
        h("button.small.ghost.btn-block", { type: "button", onclick: () => act(() => api("PUT", `/friends/blocks/${f.id}`)) }, t("fr_block")),
      ]));
      if (inviting === f.id) friends.append(h("li.fr-row", null, chooser(f)));
    }
    const received = h("ul.fr-list#friend-received");
    for (const p of page.received) {
      received.append(row(p, [], [
        h("button.small.primary.btn-accept", { type: "button", onclick: () => act(() => api("POST", `/friends/requests/${p.id}/accept`)) }, t("fr_accept")),
        h("button.small.btn-refuse", { type: "button", onclick: () => act(() => api("POST", `/friends/requests/${p.id}/refuse`)) }, t("fr_refuse")),
      ]));
    }
    const sent = h("ul.fr-list#friend-sent");
    for (const p of page.sent) {
      sent.append(row(p, [], [h("span.muted", null, t("fr_waiting")), h("button.small.ghost", { type: "button", onclick: () => act(() => api("DELETE", `/friends/requests/${p.id}`)) }, t("cancel"))]));
    }
    const recentList = h("ul.fr-list#friend-recent");
    for (const p of recent) {
      recentList.append(row(p, [], [p.friend
        ? h("span.muted", null, t("fr_is_friend"))
        : h("button.small.btn-add", { type: "button", onclick: () => act(() => api("POST", "/friends/requests", { who: p.name })) }, t("fr_add"))]));
    }
    const blocked = h("ul.fr-list#friend-blocked");
    for (const p of page.blocked) {
      blocked.append(row(p, [], [h("button.small.ghost", { type: "button", onclick: () => act(() => api("DELETE", `/friends/blocks/${p.id}`)) }, t("fr_unblock"))]));
    }
    const empty = (/** @type {string} */ key) => h("p.muted", null, t(key));
    root.replaceChildren(
      h("div.friends", null,
        h("section.panel.fr-me", null,
          h("h2", null, t("fr_title")),
          h("p", null, t("fr_code"), " ", h("b#friend-code.fr-code", null, page.code)),
          h("form.row", { onsubmit: add }, who, h("button.primary#btn-friend-add", { type: "submit" }, t("fr_add"))),
          h("p.muted.small", null, t("fr_limits", page.limits.friends, page.limits.outgoing)),
        ),
        page.received.length ? h("section.panel", null, h("h3", null, t("fr_received")), received) : null,
        h("section.panel", null, h("h3", null, t("fr_friends"), ` (${page.friends.length})`), page.friends.length ? friends : empty("fr_none")),
        page.sent.length ? h("section.panel", null, h("h3", null, t("fr_sent_title")), sent) : null,
        h("section.panel", null, h("h3", null, t("fr_recent")), recent.length ? recentList : empty("fr_no_recent")),
        page.blocked.length ? h("section.panel", null, h("h3", null, t("fr_blocked")), blocked) : null,
        h("p.links", null, h("a", { href: "#/" }, t("back_lobby"))),
      ),
    );
    if (keepFocus) who.focus();
  };
  redraw = () => { if (current()) draw().catch(() => {}); else redraw = null; };
  await draw();
}
