// The arcade campaign (关卡模式, arcade §3): bankroll, stage, purse and streak; the stake chosen
// before each hand (the last one kept); the last hand's payout explained; stage clear, game over
// and run complete; start, continue or abandon. The hands are played at the campaign table.
// arcade's module (family.js) registers the screen (`#/campaign`), its lobby card, its tables'
// kind and its part of their settlements; the shared client it uses comes in the kit (a family's
// files import nothing of it at run time).  The HTTP API: GET /campaign, POST /campaign/start,
// /campaign/hand, /campaign/abandon.

/** @typedef {import("../../../web/js/families.js").Kit} Kit */
/** @typedef {import("../../../web/js/families.js").ScreenNav} ScreenNav */
/** @typedef {import("../../../web/js/families.js").SettlePart} SettlePart */

/** The rows only the campaign uses. @type {Record<string, [string, string]>} */
export const CAMPAIGN_WORDS = {
  c_level: ["本关对手：{0}", "This stage's opponent: {0}"],
  campaign: ["关卡模式", "Arcade campaign"],
  campaign_d: ["四关挑战电脑：押分、赢光电脑的分数即过关。", "Four stages against the computer: stake, win, empty the computer's purse to clear a stage."],
  campaign_go: ["进入关卡模式", "Open the campaign"],
  c_intro: ["与电脑对战四关，本金 1,000 分。每局开始前押分（100 的 1–10 倍）。", "Play the computer through four stages with a bankroll of 1,000. Before each hand you stake 1–10 × 100."],
  c_rule1: ["你胡牌：退还押分，并得 押分倍数 × 番数底分（三连庄加倍）。", "You win: your stake back plus m × the hand's base (doubled on a third dealer win in a row)."],
  c_rule2: ["电脑胡牌：只输掉押分；流局退还押分。", "The computer wins: you lose only the stake; a draw returns it."],
  c_rule3: ["赢光电脑的分数即过关；本金不足 100 则游戏失败。", "Empty the computer's purse to clear the stage; below 100 points the game is over."],
  c_start: ["开始关卡模式", "Start the campaign"],
  c_continue: ["继续这一局", "Continue the hand"],
  c_stage: ["关卡", "Stage"],
  c_bankroll: ["本金", "Bankroll"],
  c_purse: ["电脑分数", "Computer's purse"],
  c_streak: ["三连庄", "Dealer streak"],
  c_stake: ["押分", "Stake"],
  c_stake_is: ["押 {0} × {1} = {2} 分", "Stake {0} × {1} = {2}"],
  c_play: ["押分开局", "Stake and deal"],
  c_abandon: ["放弃本轮", "Abandon the run"],
  c_abandon_q: ["放弃本轮关卡？当前本金即为最终得分。", "Abandon the run? Your bankroll now is its score."],
  c_new: ["重新开始", "New campaign"],
  c_last: ["第 {0} 局结算", "Hand {0}: the payout"],
  c_out_win: ["你胡牌了！", "You won the hand!"],
  c_out_lose: ["电脑胡牌：输掉押分（电脑胡牌不计番）。", "The computer won: you lose the stake (no fan counted)."],
  c_out_draw: ["流局：退还押分。", "Exhaustive draw: the stake comes back."],
  c_base_fan: ["底分 = f × (f + 1) × 50，f = {0}：{1}", "Base = f × (f + 1) × 50 with f = {0}: {1}"],
  c_base_yakuman: ["{0} 倍役满：底分 {1}", "{0}× yakuman: base {1}"],
  c_line_stake: ["押分 {0} × 100 = {1}，本金 {2} → {3}", "Stake {0} × 100 = {1}; bankroll {2} → {3}"],
  c_line_payout: ["赢分 = {0} × {1}{2} = {3}", "Payout = {0} × {1}{2} = {3}"],
  c_bonus: [" × 2（三连庄拍分）", " × 2 (three-streak bonus)"],
  c_line_returned: ["退还押分 {0}", "Stake returned: {0}"],
  c_line_bankroll: ["本金 {0}（本局 {1}）", "Bankroll {0} ({1} this hand)"],
  c_line_purse: ["电脑分数 {0} − {1} = {2}", "Computer's purse {0} − {1} = {2}"],
  c_line_purse_out: ["电脑分数 {0} − {1} → 0：分数清空（赢分全额照付）", "Computer's purse {0} − {1} → 0: emptied (the payout is paid in full)"],
  c_line_streak: ["连庄 {0} → {1}", "Dealer streak {0} → {1}"],
  c_cleared: ["第 {0} 关通过！", "Stage {0} cleared!"],
  c_cleared_d: ["第 {0} 关开始，电脑分数 {1}。本金保留。", "Stage {0} begins; the computer's purse is {1}. Your bankroll carries over."],
  c_game_over: ["游戏失败", "Game over"],
  c_game_over_d: ["本金 {0} 不够最低押分 100。", "Your bankroll of {0} cannot cover the smallest stake (100)."],
  c_complete: ["通关！", "Campaign complete!"],
  c_complete_d: ["四关全部通过，最终得分 {0}。", "All four stages cleared. Final score: {0}."],
  c_to_campaign: ["回到关卡", "Back to the campaign"],
  leave_campaign: ["现在离开，这一局算输给电脑：押分不退还。", "Leaving now loses the hand to the computer: the stake is not returned."],
};

/**
 * @typedef {{status: string, stage: number, stages: number, bankroll: number, purse: number,
 *   stage_purse: number, dealer: number, streak: number, streak_length: number, multiplier: number,
 *   max_multiplier: number, stake_unit: number, hands: number, stage_hands: number,
 *   best_payout: number, current: any, last: Last|null, table: string|null, level?: string,
 *   style?: {zh: string, en: string}}} Campaign
 * @typedef {{hand: number, stage: number, multiplier: number, stake: number, outcome: string,
 *   fan: number, yakuman: number, base: number, bonus: boolean, payout: number,
 *   stake_returned: number, bankroll_before: number, bankroll: number, gain: number,
 *   purse_before: number, purse: number, streak_before: number, streak: number,
 *   cleared: boolean, next_stage: number|null, status: string, lines: string[]}} Last
 */

/** How this stage's computer plays (the server's words, `style`), or null without them.
 * @param {Kit} kit @param {Campaign} c @returns {HTMLElement|null} */
function stageStyle(kit, c) {
  return c.style ? kit.h("p.camp-style", null, kit.lang() === "zh" ? c.style.zh : c.style.en) : null;
}

/** The figures of a run. @param {Kit} kit @param {Campaign} c @returns {HTMLElement} */
function campaignStats(kit, c) {
  const { h, t, amount, computerName } = kit;
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
 * empties reads 0 — the stage is cleared, nothing is owed below zero. @param {Kit} kit @param {Last} l @returns {string} */
function purseLine(kit, l) {
  const { t, amount } = kit;
  if (l.purse_before - l.payout <= 0) return t("c_line_purse_out", amount(l.purse_before), amount(l.payout));
  return t("c_line_purse", amount(l.purse_before), amount(l.payout), amount(l.purse_before - l.payout));
}

/** How the last hand paid, step by step. @param {Kit} kit @param {Last} l @returns {HTMLElement} */
function payoutEl(kit, l) {
  const { h, t, amount, change } = kit;
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
  if (l.payout) rows.push(h("li", null, purseLine(kit, l)));
  if (l.streak !== l.streak_before || l.bonus) rows.push(h("li", null, t("c_line_streak", l.streak_before, l.streak)));
  return h(
    "div.camp-payout",
    null,
    h("h3", null, t("c_last", l.hand)),
    h("ol.camp-lines", null, ...rows),
  );
}

/** The banner of a run's state change. @param {Kit} kit @param {Campaign} c @returns {HTMLElement|null} */
function banner(kit, c) {
  const { h, t, amount, computerName } = kit;
  if (c.status === "game_over") return h("div.camp-banner.over", null, h("h2", null, t("c_game_over")), h("p", null, t("c_game_over_d", amount(c.bankroll))));
  if (c.status === "complete") return h("div.camp-banner.complete", null, h("h2", null, t("c_complete")), h("p", null, t("c_complete_d", amount(c.bankroll))));
  if (c.last && c.last.cleared) return h("div.camp-banner.cleared", null, h("h2", null, t("c_cleared", c.last.stage)), h("p", null, t("c_cleared_d", c.stage, amount(c.stage_purse))), c.level ? h("p.camp-level", null, t("c_level", computerName(c.level))) : null);
  return null;
}

/**
 * The campaign screen (`#/campaign`): drawn once `GET /campaign` answers, unless the player
 * went elsewhere meanwhile.
 * @param {Kit} kit @param {HTMLElement} root @param {ScreenNav} nav
 */
export async function campaignScreen(kit, root, nav) {
  const { api, h, t, toast, amount, failure } = kit;
  /** @type {{campaign: Campaign|null}} */
  const got = await api("GET", "/campaign");
  if (!nav.current()) return;
  const c = got.campaign;
  /** @param {() => Promise<any>} call */
  const run = async (call) => {
    try {
      const res = await call();
      if (res && res.table) nav.toTable(res.table);
      else await campaignScreen(kit, root, nav);
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
  const body = [h("h2", null, t("campaign")), campaignStats(kit, c)];
  const style = stageStyle(kit, c);
  if (style && !over) body.push(style);
  const b = banner(kit, c);
  if (b) body.push(b);
  if (c.last) body.push(payoutEl(kit, c.last));
  if (c.status === "in_hand" && c.table) {
    const tableId = c.table;
    body.push(h("div.row", null, h("button.primary.big#btn-camp-continue", { type: "button", onclick: () => nav.toTable(tableId) }, t("c_continue"))));
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

/** The lobby's card of the campaign. @param {Kit} kit @returns {HTMLElement} */
export function campaignCard(kit) {
  const { h, t } = kit;
  return h("section.panel.card-campaign", null,
    h("h2", null, t("campaign")),
    h("p.muted", null, t("campaign_d")),
    h("a.button.primary#btn-campaign", { href: "#/campaign" }, t("campaign_go")),
  );
}

/** A campaign hand's part of its settlement (the event's `campaign`): the run's figures and the
 * payout, no amounts, no rows of the computer's win (R3.4), and the way back to the campaign.
 * @param {Kit} kit @param {any} end the settlement event @returns {SettlePart|null} */
export function campaignSettlement(kit, end) {
  const c = /** @type {Campaign|null|undefined} */ (end.campaign);
  if (!c) return null;
  const el = kit.h("div.settle-campaign", null, campaignStats(kit, c), c.last ? payoutEl(kit, c.last) : null);
  return { el, amounts: false, opponentRows: false, next: "c_to_campaign" };
}
