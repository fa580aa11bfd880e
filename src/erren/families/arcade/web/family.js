// arcade's part of the browser client (erren/web/js/families.js): the 财神 and the flower kind
// beside it (R2.7), the tile offered for a pung answered by giving tiles up (R2.22) and the
// tiles given so far in that choice or in the opening exchange (R2.21), the pick (R2.23) and
// the words of its own events, and an escape's 13 × base points.

/** @typedef {import("../../../web/js/families.js").FamilyClient} FamilyClient */
/** @typedef {import("../../../web/js/families.js").FamilyView} FamilyView */
/** @typedef {import("../../../web/js/families.js").TableContext} TableContext */

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

/** @param {import("../../../web/js/families.js").Kit} kit @returns {FamilyClient} */
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
  };
}
