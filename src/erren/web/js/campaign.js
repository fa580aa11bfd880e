// The arcade campaign (关卡模式, arcade §3): bankroll, stage, purse and streak; the stake chosen
// before each hand (the last one kept); the last hand's payout explained; stage clear, game over
// and run complete; start, continue or abandon. The hands are played at the campaign table.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { amount, change, computerName, failure, t } from "./i18n.js";

/**
 * @typedef {{status: string, stage: number, stages: number, bankroll: number, purse: number,
 *   stage_purse: number, dealer: number, streak: number, streak_length: number, multiplier: number,
 *   max_multiplier: number, stake_unit: number, hands: number, stage_hands: number,
 *   best_payout: number, current: any, last: Last|null, table: string|null, level?: string}} Campaign
 * @typedef {{hand: number, stage: number, multiplier: number, stake: number, outcome: string,
 *   fan: number, yakuman: number, base: number, bonus: boolean, payout: number,
 *   stake_returned: number, bankroll_before: number, bankroll: number, gain: number,
 *   purse_before: number, purse: number, streak_before: number, streak: number,
 *   cleared: boolean, next_stage: number|null, status: string, lines: string[]}} Last
 */

/** The figures of a run. @param {Campaign} c @returns {HTMLElement} */
export function campaignStats(c) {
  const cell = (/** @type {string} */ label, /** @type {string} */ value, /** @type {string} */ cls) => h(`div.stat.${cls}`, null, h("span.label", null, label), h("span.value", null, value));
  return h(
    "div.camp-stats",
    null,
    cell(t("c_stage"), `${c.stage} / ${c.stages}${c.level ? " · " + computerName(c.level) : ""}`, "stage"),
    cell(t("c_bankroll"), amount(c.bankroll), "bankroll"),
    cell(t("c_purse"), `${amount(Math.max(0, c.purse))} / ${amount(c.stage_purse)}`, "purse"),
    cell(t("c_streak"), `${c.streak} / ${c.streak_length}`, "streak"),
  );
}

/** The purse after a payout (arcade R3.6): the payout is paid in full, and a purse it
 * empties reads 0 — the stage is cleared, nothing is owed below zero. @param {Last} l @returns {string} */
function purseLine(l) {
  if (l.purse_before - l.payout <= 0) return t("c_line_purse_out", amount(l.purse_before), amount(l.payout));
  return t("c_line_purse", amount(l.purse_before), amount(l.payout), amount(l.purse_before - l.payout));
}

/** How the last hand paid, step by step. @param {Last} l @returns {HTMLElement} */
export function payoutEl(l) {
  const outcome = { player_win: t("c_out_win"), computer_win: t("c_out_lose"), draw: t("c_out_draw") }[l.outcome] || l.outcome;
  const base = l.yakuman ? t("c_base_yakuman", l.yakuman, amount(l.base)) : l.outcome === "player_win" ? t("c_base_fan", Math.min(13, l.fan), amount(l.base)) : "";
  /** @type {HTMLElement[]} */
  const rows = [
    h("li", null, t("c_line_stake", l.multiplier, amount(l.stake), amount(l.bankroll_before), amount(l.bankroll_before - l.stake))),
    h("li", null, outcome),
  ];
  if (base) rows.push(h("li", null, base));
  if (l.outcome === "player_win") rows.push(h("li", null, t("c_line_payout", l.multiplier, amount(l.base), l.bonus ? t("c_bonus") : "", amount(l.payout))));
  if (l.stake_returned) rows.push(h("li", null, t("c_line_returned", amount(l.stake_returned))));
  rows.push(h("li", null, t("c_line_bankroll", amount(l.bankroll), change(l.gain))));
  if (l.payout) rows.push(h("li", null, purseLine(l)));
  if (l.streak !== l.streak_before || l.bonus) rows.push(h("li", null, t("c_line_streak", l.streak_before, l.streak)));
  return h(
    "div.camp-payout",
    null,
    h("h3", null, t("c_last", l.hand)),
    h("ol.camp-lines", null, ...rows),
  );
}

/** The banner of a run's state change. @param {Campaign} c @returns {HTMLElement|null} */
function banner(c) {
  if (c.status === "game_over") return h("div.camp-banner.over", null, h("h2", null, t("c_game_over")), h("p", null, t("c_game_over_d", amount(c.bankroll))));
  if (c.status === "complete") return h("div.camp-banner.complete", null, h("h2", null, t("c_complete")), h("p", null, t("c_complete_d", amount(c.bankroll))));
  if (c.last && c.last.cleared) return h("div.camp-banner.cleared", null, h("h2", null, t("c_cleared", c.last.stage)), h("p", null, t("c_cleared_d", c.stage, amount(c.stage_purse))), c.level ? h("p.camp-level", null, t("c_level", computerName(c.level))) : null);
  return null;
}

/**
 * The campaign screen.
 * @param {HTMLElement} root @param {(table: string) => void} onTable
 */
export async function campaignScreen(root, onTable) {
  /** @type {{campaign: Campaign|null}} */
  const got = await api("GET", "/campaign");
  const c = got.campaign;
  /** @param {() => Promise<any>} call */
  const run = async (call) => {
    try {
      const res = await call();
      if (res && res.table) onTable(res.table);
      else await campaignScreen(root, onTable);
    } catch (e) {
      toast(failure(e), "error");
    }
  };
  const back = h("a.button.ghost", { href: "#/" }, t("back_lobby"));
  if (!c) {
    root.replaceChildren(
      h("div.panel.campaign", null,
        h("h2", null, t("campaign")),
        h("p", null, t("c_intro")),
        h("ul.camp-rules", null, h("li", null, t("c_rule1")), h("li", null, t("c_rule2")), h("li", null, t("c_rule3"))),
        h("div.row", null, h("button.primary.big#btn-camp-start", { type: "button", onclick: () => run(() => api("POST", "/campaign/start")) }, t("c_start")), back),
      ),
    );
    return;
  }
  const over = c.status === "game_over" || c.status === "complete";
  /** @type {HTMLElement[]} */
  const body = [h("h2", null, t("campaign")), campaignStats(c)];
  const b = banner(c);
  if (b) body.push(b);
  if (c.last) body.push(payoutEl(c.last));
  if (c.status === "in_hand" && c.table) {
    const tableId = c.table;
    body.push(h("div.row", null, h("button.primary.big#btn-camp-continue", { type: "button", onclick: () => onTable(tableId) }, t("c_continue"))));
  } else if (c.status === "ready") {
    let m = Math.max(1, Math.min(c.multiplier, c.max_multiplier));
    const stakes = h("div.camp-stakes", { role: "radiogroup", "aria-label": t("c_stake") });
    const label = h("span.camp-stake-value");
    const draw = () => {
      for (const btn of stakes.querySelectorAll("button")) btn.classList.toggle("on", Number(/** @type {HTMLElement} */ (btn).dataset.m) === m);
      label.textContent = t("c_stake_is", m, amount(c.stake_unit), amount(m * c.stake_unit));
    };
    for (let i = 1; i <= 10; i++) {
      const k = i;
      stakes.append(h("button.stake", { type: "button", "data-m": String(k), disabled: k > c.max_multiplier, onclick: () => { m = k; draw(); } }, `×${k}`));
    }
    draw();
    body.push(
      h("div.camp-choose", null, h("h3", null, t("c_stake")), stakes, label),
      h("div.row", null, h("button.primary.big#btn-camp-hand", { type: "button", onclick: () => run(() => api("POST", "/campaign/hand", { multiplier: m })) }, t("c_play"))),
    );
  }
  const buttons = h("div.row.camp-buttons", null, back);
  if (over) buttons.prepend(h("button.primary#btn-camp-new", { type: "button", onclick: () => run(() => api("POST", "/campaign/start")) }, t("c_new")));
  else {
    buttons.append(
      h("button.ghost.danger#btn-camp-abandon", {
        type: "button",
        onclick: () => {
          if (window.confirm(t("c_abandon_q"))) run(() => api("POST", "/campaign/abandon"));
        },
      }, t("c_abandon")),
    );
  }
  body.push(buttons);
  root.replaceChildren(h("div.panel.campaign", null, ...body));
}
