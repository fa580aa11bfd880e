// The table's motion: the drawn tile slides in, a discard travels from the hand to the river,
// a claimed tile moves from the river into its meld, a kong's meld settles, the win reveals the
// winner's hand.  Short (at most 240 ms) Web Animations on the freshly drawn board, each made
// "first, last, invert, play": where the tile was on the old board is measured before the board
// is redrawn, and the new tile starts there.  Nothing waits on them: the drawn tile can be
// clicked while it slides in, and a tile in flight lets clicks through to the tiles under it.
// None at all when the player asks for reduced motion (prefers-reduced-motion).

/** @typedef {import("./table.js").GameEvent} GameEvent */
/**
 * A motion owed to the next drawing of the board, by the seat that moved.
 * @typedef {{kind: "draw"|"discard"|"claim"|"kong"|"reveal", seat: number, tile?: string}} Motion
 */

const MS = 220;
const EASE = "cubic-bezier(.2, .7, .3, 1)";

const MOTION_KEY = "erren.motion";

/** @typedef {"system"|"reduce"} MotionChoice */

/** The player's motion setting (remembered per browser): follow the system, or reduce. @returns {MotionChoice} */
export function motionChoice() {
  try {
    return localStorage.getItem(MOTION_KEY) === "reduce" ? "reduce" : "system";
  } catch {
    return "system";
  }
}

/** Choose the motion setting and remember it; `<html>` carries `.reduce-motion` while reduced. @param {MotionChoice} choice */
export function setMotionChoice(choice) {
  try {
    if (choice === "reduce") localStorage.setItem(MOTION_KEY, "reduce");
    else localStorage.removeItem(MOTION_KEY);
  } catch {
    /* storage refused: the choice holds for this page only */
  }
  document.documentElement.classList.toggle("reduce-motion", choice === "reduce");
}

/** Whether motion is wanted: not when the player asks for less of it, in the settings or the
 * system (prefers-reduced-motion). @returns {boolean} */
export function motionWanted() {
  if (document.documentElement.classList.contains("reduce-motion")) return false;
  try {
    return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  } catch {
    return false;
  }
}

/** The motion of an event the seat received, if it has one. @param {GameEvent} ev @returns {Motion|null} */
export function motionOf(ev) {
  const seat = typeof ev.player === "number" ? ev.player : -1;
  switch (ev.kind) {
    case "draw":
      return { kind: "draw", seat };
    case "discard":
    case "ting":
      return { kind: "discard", seat, tile: ev.tile };
    case "chi":
    case "peng":
    case "minggang":
      return { kind: "claim", seat };
    case "angang":
    case "jiagang":
      return { kind: "kong", seat };
    case "settlement":
      return ev.result && ev.result.kind === "win" ? { kind: "reveal", seat: Number(ev.result.winner) } : null;
    default:
      return null;
  }
}

/** The side of the board a seat sits on. @param {number} seat @param {number} me @returns {string} */
function side(seat, me) {
  return seat === me ? "mine" : "opp";
}

/** @param {ParentNode} root @param {string} sel @returns {HTMLElement|null} */
function last(root, sel) {
  const all = root.querySelectorAll(sel);
  const el = all[all.length - 1];
  return el instanceof HTMLElement ? el : null;
}

/**
 * Where each motion starts on the board about to be redrawn (null where nothing is measured).
 * @param {ParentNode} root @param {Motion[]} motions @param {number} me
 * @returns {Array<DOMRect|null>}
 */
export function measure(root, motions, me) {
  return motions.map((m) => {
    /** @type {HTMLElement|null} */
    let el = null;
    if (m.kind === "discard") {
      el = m.seat === me ? last(root, `.hand-mine > .tile[data-tile="${m.tile || ""}"]`) : last(root, ".hand-opp .tile");
    } else if (m.kind === "claim") el = last(root, `.river-${side(1 - m.seat, me)} .tile.last`);
    return el ? el.getBoundingClientRect() : null;
  });
}

/**
 * Play an animation.  A tile in flight (`flying`: a discard, a claimed tile) passes over other
 * tiles and takes no click while it flies, so a click lands on the tile under it; a tile moving
 * in place (the drawn tile) stays clickable all along.
 * @param {HTMLElement} el @param {Keyframe[]} frames @param {string} id
 * @param {{ms?: number, flying?: boolean}} [o]
 */
function run(el, frames, id, o = {}) {
  const anim = el.animate(frames, { duration: o.ms || MS, easing: EASE, id });
  if (!o.flying) return;
  el.classList.add("moving");
  const done = () => el.classList.remove("moving");
  anim.onfinish = done;
  anim.oncancel = done;
}

/** From where the tile was to where it is now. @param {HTMLElement} el @param {DOMRect} from @param {string} id */
function travel(el, from, id) {
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const s = from.width / to.width;
  run(el, [
    { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${s})` },
    { transformOrigin: "0 0", transform: "none" },
  ], id, { flying: true });
}

/**
 * Play the motions on the redrawn board, from the places `measure` found.
 * @param {ParentNode} root @param {Motion[]} motions @param {Array<DOMRect|null>} from @param {number} me
 */
export function animate(root, motions, from, me) {
  motions.forEach((m, i) => {
    const start = from[i];
    const where = side(m.seat, me);
    if (m.kind === "draw") {
      const el = last(root, `.hand-${where} .tile.drawn`);
      const dy = where === "mine" ? 24 : -24;
      if (el) run(el, [{ opacity: 0, transform: `translate(18px, ${dy}px)` }, { opacity: 1, transform: "none" }], "draw", { ms: 180 });
    } else if (m.kind === "discard") {
      const el = last(root, `.river-${where} .tile.last`);
      if (el && start) travel(el, start, "discard");
    } else if (m.kind === "claim") {
      const meld = last(root, `.seat-${where} .meld:not(.meld-an_gang)`);
      const el = meld && (meld.querySelector(".claimed") || meld);
      if (el instanceof HTMLElement && start) travel(el, start, "claim");
      else if (meld) run(meld, [{ transform: "scale(.6)", opacity: 0.4 }, { transform: "none", opacity: 1 }], "claim");
    } else if (m.kind === "kong") {
      const meld = last(root, `.seat-${where} .meld`);
      if (meld) run(meld, [{ transform: "scale(.6)", opacity: 0.4 }, { transform: "none", opacity: 1 }], "kong");
    } else if (m.kind === "reveal") {
      root.querySelectorAll(".settle-hand .tile").forEach((el, k) => {
        if (el instanceof HTMLElement) {
          run(el, [{ opacity: 0, transform: "perspective(300px) rotateY(90deg)" }, { opacity: 1, transform: "none" }], "reveal", { ms: Math.min(240, 140 + k * 7) });
        }
      });
    }
  });
}
