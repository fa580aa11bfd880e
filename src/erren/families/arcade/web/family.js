// arcade's part of the browser client (erren/web/js/families.js): the 财神 and the flower kind
// beside it (R2.7), the tile offered for a pung answered by giving tiles up (R2.22) and the
// tiles given so far in that choice or in the opening exchange (R2.21), the pick (R2.23) and
// the words of its own events, and an escape's 13 × base points; its two choices of several
// tiles (selection modes: the opening exchange and the pung answer, sent one `give:X` at a time
// in canonical order), the prompts of the pick and of a pung offered, and the campaign
// (关卡模式, arcade §3: its screen at `#/campaign`, its lobby card, its tables and settlement).

/** @typedef {import("../../../web/js/families.js").FamilyClient} FamilyClient */
/** @typedef {import("../../../web/js/families.js").FamilyView} FamilyView */
/** @typedef {import("../../../web/js/families.js").TableContext} TableContext */
/** @typedef {import("../../../web/js/families.js").Kit} Kit */
/** @typedef {import("../../../web/js/families.js").SelectionMode} SelectionMode */

import { campaignCard, campaignScreen, campaignSettlement, CAMPAIGN_WORDS } from "./campaign.js";

/** How many tiles a pung offered is answered with (R2.22). */
const PUNG_TILES = 3;

const WILD_BADGE = { zh: "财", en: "W" };

/** The 财神 and its flower kind: the view's, else the last `wild` event's (a replay shows it
 * from the first frame). @param {FamilyView} view @param {TableContext} ctx
 * @returns {{wild: string|null, flowerKind: string|null}} */
function wildOf(view, ctx) {
  let wild = null;
  let flowerKind = null;
  for (const ev of ctx.events) {
    if (ev.kind === "wild" && ev.tile) {
      wild = ev.tile;
      flowerKind = ev.data.flower;
    }
  }
  if (view.family === "arcade") {
    if (view.wild) wild = view.wild;
    if (view.flower_kind) flowerKind = view.flower_kind;
  }
  return { wild, flowerKind };
}

/** The rows only arcade uses (its marks, indicators and moves; its choices and prompts).
 * @type {Record<string, [string, string]>} */
const WORDS = {
  wild: ["财神", "Wild"],
  flower_kind: ["花牌", "Flower"],
  a_exchange: ["换牌", "Exchange"],
  a_takepung: ["换刻子", "Take the pung"],
  a_pick: ["搓牌", "Pick"],
  select_n: ["选好要换的牌，然后确认", "Select the tiles to give up, then confirm"],
  no_exchange: ["不换", "Keep all"],
  pung_offer: ["系统送你一副 {0} 刻子：选 3 张牌换走", "A pung of {0} is offered: select 3 tiles to give up"],
  exchange_more: ["已换出 {0} 张：可再选要换的牌，然后确认", "{0} tile(s) given up: select more to give up, then confirm"],
  pung_more: ["再选 {0} 张牌换走 {1} 刻子", "Select {0} more tile(s) to give up for the pung of {1}"],
  pick_any: ["搓牌：任选一张想摸的牌", "Pick any tile you want to draw"],
  pung_offered: ["系统送你一副刻子", "You are offered a pung"],
  pung_choices: ["换：点「{0}」再选 3 张牌换走 · 不换：直接出牌", "Take it: {0}, then pick 3 tiles to give up · Decline: just discard"],
  // its own events' sentences and its refusals' words (the engine's codes)
  e_wild: ["财神（花牌 {1}）", "The wild (flowers: {1}) is"],
  e_exchange: ["{0} 换牌 {1} 张", "{0} exchanged {1} tile(s)"],
  e_pick_offer: ["{0} 选牌", "{0} may pick a tile"],
  e_pick: ["{0} 搓牌", "{0} picked"],
  e_pung_offer: ["{0} 可换一刻", "{0} is offered a pung of"],
  e_takepung: ["{0} 换来一刻", "{0} took the pung of"],
  e_give: ["{0} 选出", "{0} chose to give up"],
  e_haidi: ["{0} 海底捞月 {1} 张", "{0} draws {1} from the reserve (the sea-bottom draws)"],
  "err_wild-in-meld": ["财神不能用来吃碰杠", "A wild cannot go into a meld"],
  "err_dead-wild": ["打出的财神是死牌：不能吃碰，也不能胡", "A discarded wild is dead: no claim, no win"],
  "err_last-discard": ["最后一张打出的牌只能胡", "The last discard may only be won on"],
  "err_no-exchange": ["换牌已经结束", "The exchange is over"],
  "err_no-pick-offer": ["这次摸牌不能搓牌", "Pick-any was not offered for this draw"],
  "err_no-pung-offer": ["这一轮没有送刻子", "No pung was offered this turn"],
  "err_nothing-to-give": ["现在没有需要换出的牌", "Nothing to give up now"],
  "err_one-tile-at-a-time": ["请一张一张地换出", "Give up the tiles one at a time"],
  "err_give-in-order": ["请按顺序换出", "Give up the tiles in order"],
  "err_pung-answer-open": ["请先换完三张牌", "First give up the rest of the three tiles"],
};

/** The opening exchange (R2.21): any number of tiles given up (`give:X` each), then `exchange`;
 * "Keep all" when none.  It stays open through the exchange phase.
 * @param {Kit} kit @returns {SelectionMode} */
function exchangeMode(kit) {
  return {
    mode: "exchange",
    holds: (st) => st.phase === "exchange",
    stays: (st) => st.phase === "exchange",
    verbs: ["give", "exchange"],
    confirm(given, picked) {
      const n = given.length + picked.length;
      return { label: n ? `${kit.t("a_exchange")} ${n}` : kit.t("no_exchange"), verb: "exchange" };
    },
    steps: (tiles) => [...tiles.map((x) => `give:${x}`), "exchange"],
    prompt: (given) => ({ text: given.length ? kit.t("exchange_more", given.length) : kit.t("select_n"), tiles: [] }),
    words: { exchange: "a_exchange", give: "a_exchange" },
  };
}

/** The answer to a pung offered (R2.22): three tiles given up (`give:X` each; the third takes the
 * pung), opened by its button; held once a tile is given.
 * @param {Kit} kit @returns {SelectionMode} */
function takePungMode(kit) {
  return {
    mode: "takepung",
    holds: (st, given) => st.phase === "turn" && given.length > 0,
    opener: { verb: "give", label: "a_takepung", key: "x", place: 9 },
    verbs: ["give"],
    room: (given) => PUNG_TILES - given.length,
    confirm: (given, picked) => (picked.length && picked.length === PUNG_TILES - given.length ? { label: `${kit.t("confirm")} ${kit.t("a_takepung")}`, verb: "takepung" } : null),
    steps: (tiles) => tiles.map((x) => `give:${x}`),
    prompt(given, offer, name) {
      const text = given.length ? kit.t("pung_more", PUNG_TILES - given.length, name) : kit.t("pung_offer", name);
      return { text, tiles: offer ? [offer, offer, offer] : [] };
    },
    words: { takepung: "a_takepung" },
  };
}

/** @param {Kit} kit @returns {FamilyClient} */
export default function arcade(kit) {
  return {
    id: "arcade",
    name: { zh: "街机麻将", en: "Arcade" },
    blurb: { zh: "财神百搭、报听、役满", en: "Wild tiles, declared ready, limit hands" },
    marks(view, ctx) {
      const { wild } = wildOf(view, ctx);
      return wild ? [{ tile: wild, badge: WILD_BADGE, name: "wild", wild: true }] : [];
    },
    indicators(view, ctx) {
      const { wild, flowerKind } = wildOf(view, ctx);
      if (!wild) return [];
      /** @type {import("../../../web/js/families.js").IndicatorPart[]} */
      const row = [{ text: "wild" }, { tile: wild, size: "s", badge: WILD_BADGE }];
      if (flowerKind) row.push({ text: "flower_kind" }, { tile: flowerKind, size: "xs" });
      return [row];
    },
    offer(view, ctx) {
      if (view.family === "arcade" && view.offer) return view.offer;
      /** @type {string|null} */
      let offer = null;
      for (const ev of ctx.events) if (ev.kind === "pung-offer" && ev.player === ctx.seat && ev.tile) offer = ev.tile;
      return offer;
    },
    giving: (view) => (view.family === "arcade" ? view.giving : []),
    escapePoints: (options) => 13 * (Number(options.base_points) || 1),
    verbs: { pick: { label: "a_pick", key: "g", tiles: true, place: 11 } },
    events: {
      exchange: { detail: (ev) => (ev.kind === "exchange" ? String(ev.data.count) : ""), said: true },
      wild: { detail: (ev) => (ev.kind === "wild" ? kit.tileName(ev.data.flower, kit.lang()) : ""), said: true },
      haidi: { detail: (ev) => (ev.kind === "haidi" ? String(ev.data.draws) : ""), said: true },
      pick: { said: true },
      takepung: { said: true },
    },
    modes: [exchangeMode(kit), takePungMode(kit)],
    prompt(st, ctx) {
      if (st.phase === "pick") return { text: kit.t("pick_any"), tiles: [] };
      if (ctx.offer && ctx.legal.length) {
        const o = ctx.offer;
        return { text: kit.t("pung_offered"), tiles: [o, o, o], choices: kit.t("pung_choices", kit.t("a_takepung")) };
      }
      return null;
    },
    screens: { campaign: (root, nav) => campaignScreen(kit, root, nav) },
    cards: () => [campaignCard(kit)],
    tables: { campaign: { leave: "leave_campaign", back: "#/campaign", name: "campaign" } },
    settlement: (end) => campaignSettlement(kit, end),
    words: { ...WORDS, ...CAMPAIGN_WORDS },
  };
}
