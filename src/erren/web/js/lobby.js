// The lobby: log in / register / guest, the bean balance, families and room tiers with their
// entry limits, quick match, private tables with an invite code, play the computer.

import { api, setToken } from "./api.js";
import { h, num, toast } from "./dom.js";
import { t } from "./i18n.js";
import { familyName } from "./table.js";

/** @typedef {import("./api.js").User} User */
/** @typedef {import("./api.js").Room} Room */

/** @param {HTMLElement} root @param {(user: User) => void} onLogin */
export function loginScreen(root, onLogin) {
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
      err.textContent = e instanceof Error ? e.message : String(e);
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
      h("div.hero", null, h("h1", null, "二人麻将 ", h("small", null, "erren")), h("p", null, t("welcome_intro"))),
      h("div.panel.auth-panel", null,
        h("button.primary.big#btn-guest", { type: "button", onclick: () => go("/auth/guest") }, t("guest")),
        h("div.or", null, "—"),
        form,
      ),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {User} user
 * @param {(table: string) => void} onTable
 */
export async function lobbyScreen(root, user, onTable) {
  const [fams, rooms, bal, mine] = await Promise.all([
    api("GET", "/families"),
    api("GET", "/rooms"),
    api("GET", "/me/balance"),
    api("GET", "/me/table").catch(() => null),
  ]);
  const balance = Number(bal.balance);
  const beans = document.getElementById("beans");
  if (beans) beans.textContent = `${num(balance)} ${t("beans")}`;
  /** @type {string[]} */
  const families = fams.families;
  let family = localStorage.getItem("erren.family") || "guobiao-2p";
  if (!families.includes(family)) family = families[0];
  /** @type {AbortController|null} */
  let waiting = null;

  /** @param {() => Promise<any>} call */
  const sit = async (call) => {
    try {
      const seat = await call();
      onTable(seat.table);
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") return;
      toast(t("error", e instanceof Error ? e.message : String(e)), "error");
      draw();
    }
  };

  const draw = () => {
    const famTabs = h("div.fam-tabs", { role: "tablist" });
    for (const f of families) {
      const key = { "guobiao-2p": "fam_guobiao", xiamen: "fam_xiamen", arcade: "fam_arcade" }[f] || "";
      famTabs.append(
        h(
          `button.fam${f === family ? ".on" : ""}`,
          { type: "button", role: "tab", "aria-selected": f === family ? "true" : "false", "data-family": f, onclick: () => { family = f; localStorage.setItem("erren.family", f); draw(); } },
          h("b", null, familyName(f)),
          h("small", null, key ? t(`${key}_d`) : ""),
        ),
      );
    }
    /** @type {Room[]} */
    const mineRooms = rooms.filter((/** @type {Room} */ r) => r.family === family);
    const roomList = h("div.rooms");
    for (const r of mineRooms) {
      const ok = balance >= r.entry_min && balance <= r.entry_max;
      roomList.append(
        h(
          `button.room${ok ? "" : ".locked"}`,
          {
            type: "button",
            disabled: !ok,
            "data-room": r.id,
            title: ok ? t("quick") : t("outside"),
            onclick: () => {
              waiting = new AbortController();
              const signal = waiting.signal;
              drawWaiting();
              sit(() => api("POST", "/match/quick", { room: r.id, wait_s: 60 }, signal));
            },
          },
          h("b", null, `${r.name} ${r.english}`),
          h("span", null, t("stake", num(r.stake))),
          h("span.limits", null, t("entry", num(r.entry_min), r.entry_max >= 1e9 ? "∞" : num(r.entry_max))),
          h("span.go", null, ok ? t("quick") + " →" : t("outside")),
        ),
      );
    }
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
            h("button.primary.big#btn-computer", { type: "button", onclick: () => sit(() => api("POST", "/tables/vs-computer", { family, bot: "efficiency" })) }, t("vs_computer")),
          ),
          h("section.panel.card-private", null,
            h("h2", null, t("private")),
            h("p", null, t("private_d")),
            h("button#btn-private", { type: "button", onclick: () => sit(() => api("POST", "/tables/private", { family })) }, t("create_private")),
            h("form.row", { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); sit(() => api("POST", "/tables/join", { invite: code.value.trim().toUpperCase() })); } }, code, h("button#btn-join", { type: "submit" }, t("join"))),
          ),
          h("section.panel.card-campaign", null,
            h("h2", null, t("campaign")),
            h("p.muted", null, t("campaign_d")),
            h("a.button.primary#btn-campaign", { href: "#/campaign" }, t("campaign_go")),
          ),
        ),
        h("section.panel", null, h("h2", null, t("rooms"), " · ", familyName(family)), roomList),
        h("p.links", null, h("a#link-history", { href: "#/games" }, t("history")), " · ", h("span.muted", null, user.guest ? `${user.name}` : user.name)),
      ),
    );
  };

  const drawWaiting = () => {
    root.replaceChildren(
      h("div.panel.waiting", null, h("div.spinner"), h("p", null, t("waiting_match")),
        h("button", { type: "button", onclick: () => { waiting?.abort(); draw(); } }, t("cancel"))),
    );
  };
  draw();
}
