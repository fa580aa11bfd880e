// Replays: the list of one's games, and a finished hand stepped through with both hands open
// at an adjustable speed, with a seat's review by 大师 (review.js) marked on the timeline. The
// link #/replay/ID (#/replay/ID?review=SEAT with the review) can be shared: finished games are
// public (a bean-room game without its players' names and beans, except to those two players).

import { ApiError, api, token } from "./api.js";
import { boardEl, familyBoard } from "./board.js";
import { h, toast } from "./dom.js";
import { describeEvent } from "./events.js";
import { computerName, failure, getLang, playerName, roomIdName, t } from "./i18n.js";
import { settlementEl } from "./settle.js";
import { familyName } from "./families.js";
import { screenToken } from "./route.js";
import { categoryText, familyUnit, fetchReview, frameOfStep, lossKind, reviewPanel } from "./review.js";

/** @typedef {import("./board.js").Obs & {action: string|null, events: import("./schema.js").EngineEvent[]}} Frame */

/** The list of the user's games. @param {HTMLElement} root */
export async function historyScreen(root) {
  const current = screenToken();
  root.replaceChildren(h("div.panel", null, h("h2", null, t("r_history")), h("div.spinner")));
  /** @type {import("./api.js").GameOut[]} */
  const games = await api("GET", "/games?limit=100");
  if (!current()) return; // the player opened another screen meanwhile
  const list = h("ul.games");
  for (const g of games) {
    const when = new Date(g.finished_at || g.created_at).toLocaleString(getLang() === "zh" ? "zh-CN" : "en-GB");
    list.append(
      h(
        "li.game",
        null,
        h("div.game-head", null, h("b", null, `#${g.id} · ${familyName(g.ruleset)}${g.room ? " · " + roomIdName(g.room) : ""}`), h("span.when", null, when)),
        h("div.game-sum", null, g.finished ? outcomeText(g) : t("running")),
        g.finished ? h("div.game-actions", null, h("a.button.r-open", { href: `#/replay/${g.id}` }, t("r_open")), downloadLinks(g.id)) : null,
      ),
    );
  }
  const panel = h("div.panel", null, h("h2", null, t("r_history")), games.length ? list : h("p", null, t("r_none")));
  root.replaceChildren(panel);
}

/** "下载记录 / Download log: mjai · erren": a finished game's log (GET /games/ID/log) as the
 * two-seat mjai profile's full log or as the erren record. The download goes with the session's
 * token, so a player's own bean-room games carry the names (a stranger's copy is anonymous).
 * @param {number} id @returns {HTMLElement} */
export function downloadLinks(id) {
  /** @param {string} format @param {string} file @param {string} cls @param {string} label */
  const link = (format, file, cls, label) => {
    const href = `/games/${id}/log?format=${format}`;
    const a = h(`a.${cls}`, { href, download: file, title: t(`r_dl_${format}`) }, label);
    a.addEventListener("click", (ev) => {
      const tok = token();
      if (!tok) return; // not logged in: the plain link downloads the public copy
      ev.preventDefault();
      fetch(href, { headers: { Authorization: `Bearer ${tok}` } })
        .then(async (res) => {
          if (!res.ok) throw new Error(res.statusText);
          const url = URL.createObjectURL(await res.blob());
          const save = h("a", { href: url, download: file });
          save.click();
          setTimeout(() => URL.revokeObjectURL(url), 1000);
        })
        .catch((e) => toast(t("error", e instanceof Error ? e.message : String(e)), "error"));
    });
    return a;
  };
  return h(
    "span.r-downloads",
    null,
    `${t("r_download")}: `,
    link("mjai", `erren-game-${id}.mjai.jsonl`, "r-dl-mjai", "mjai"),
    " · ",
    link("erren", `erren-game-${id}.json`, "r-dl-erren", "erren"),
  );
}

/** Signed, with thousands separators. @param {number} n @returns {string} */
function signed(n) {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n).toLocaleString("en-US")}`;
}

/**
 * How a game ended, from its structured `outcome` ("对手胡牌（自摸） · −18 分"), worded for the
 * player of `g.seat`; a game finished before outcomes were kept reads "finished".
 * @param {import("./api.js").GameOut} g @returns {string}
 */
export function outcomeText(g) {
  const o = g.outcome;
  if (!o) return t("h_ended");
  if (o.kind === "called-off") return t("h_called_off");
  const me = g.seat ?? 0;
  /** @type {string[]} */
  const parts = [t("hand_no", o.hand ?? 1)];
  if (o.kind === "win") {
    const how = t(`how_${o.how === "zimo" ? "zimo" : o.how === "robbing" ? "robbing" : "discard"}`);
    parts.push(t(o.winner === me ? "h_win_me" : "h_win_opp", how));
  } else if (o.kind === "abort") parts.push(t(o.loser === me ? "h_abort_me" : "h_abort_opp"));
  else parts.push(t("h_draw"));
  const points = o.deltas ? o.deltas[me] : 0;
  if (points) parts.push(t("h_points", signed(points)));
  const beans = o.beans ? o.beans[me] : 0;
  if (beans) parts.push(t("h_beans", signed(beans)));
  return parts.join(" · ");
}

/** The seats' names in a replay: a computer's by its level, in the player's language.
 * @param {Array<string|null>} seats @param {Array<string|null>|undefined} levels @returns {string[]} */
function replayNames(seats, levels) {
  return seats.map((name, i) => (levels && levels[i] ? computerName(String(levels[i])) : name ? playerName(name) : t("seat_n", i + 1)));
}

/**
 * The settlement's amounts in a replay: the beans a bean-room hand moved as its players see
 * them; to anyone else they are not shown (the server withholds them), never "score only".
 * @param {any} game `GET /games/{id}` @param {any} result @returns {{result: any, beans: number[]|null, stake: number|null, beansHidden: boolean}}
 */
function replayEnd(game, result) {
  const beans = game.record && game.record.outcome && Array.isArray(game.record.outcome.beans) ? game.record.outcome.beans.map(Number) : null;
  const beanRoom = Boolean(game.bean_room);
  return { result, beans: beanRoom ? beans : null, stake: beanRoom && beans ? 1 : null, beansHidden: beanRoom && !beans };
}

/** The first and last step buttons' icons, drawn (a bar and a triangle: ⏮ ⏭), so no font
 * needs the glyphs. */
const FIRST = "M5 5h3v14H5zM19 5v14L9 12z";
const LAST = "M16 5h3v14h-3zM5 5v14l10-7z";

/** A replay button's drawn icon. @param {string} path @returns {HTMLElement} */
function replayIcon(path) {
  const el = h("span.r-icon", { "aria-hidden": "true" });
  el.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18"><path d="${path}" fill="currentColor"/></svg>`;
  return el;
}

/** The hand's number at its table, as the history gives it (the record's `outcome.hand`; 1 for
 * a record without one). @param {any} record @returns {number} */
function handNo(record) {
  const hand = record && record.outcome ? Number(record.outcome.hand) : NaN;
  return Number.isInteger(hand) && hand > 0 ? hand : 1;
}

/** The address of a replay, with a seat's review or none. @param {number} id @param {number|null} seat @returns {string} */
function replayLink(id, seat) {
  return `${location.origin}/#/replay/${id}${seat === null ? "" : `?review=${seat}`}`;
}

/**
 * The review part of a replay: the seat chooser, the decisions marked on the timeline (at the
 * frame each was decided from, coloured by its loss) and the review panel; a mark or a
 * decision clicked jumps to its frame.
 * @param {{id: number, actions: string[], frames: number, names: string[], seat: number|null, jump: (frame: number) => void, chosen: (seat: number|null) => void}} o
 * @returns {{chooser: HTMLElement, marks: HTMLElement, box: HTMLElement, at: (frame: number) => void}}
 */
function replayReview(o) {
  const marks = h("span.r-marks", { "aria-hidden": "true" });
  const box = h("div.r-review");
  const last = Math.max(1, o.frames - 1);
  /** @type {Map<number, HTMLElement[]>} the elements of each frame's decisions */
  let byFrame = new Map();
  const show = async (/** @type {number|null} */ seat) => {
    marks.replaceChildren();
    byFrame = new Map();
    if (seat === null) {
      box.replaceChildren();
      return;
    }
    box.replaceChildren(h("p.rv-wait", null, t("rv_loading")), h("div.spinner"));
    try {
      const msg = await fetchReview(o.id, seat);
      const unit = await familyUnit(msg.review.ruleset);
      const onJump = (/** @type {number} */ step) => o.jump(frameOfStep(o.actions, step));
      box.replaceChildren(reviewPanel(msg.review, { unit, onJump, hindsight: msg.hindsight }));
      for (const d of msg.review.decisions) {
        const frame = frameOfStep(o.actions, d.step);
        const title = `${categoryText(d.category)} · ${t("r_step", frame, last)}`;
        const mark = h(`button.r-mark.rv-loss-${lossKind(d)}`, { type: "button", "data-step": d.step, "data-frame": frame, "data-match": d.match ? "1" : "0", title, style: `left: ${(frame / last) * 100}%` });
        mark.addEventListener("click", () => o.jump(frame));
        marks.append(mark);
      }
      for (const el of box.querySelectorAll(".rv-row")) {
        const frame = frameOfStep(o.actions, Number(/** @type {HTMLElement} */ (el).dataset.step));
        byFrame.set(frame, [...(byFrame.get(frame) || []), /** @type {HTMLElement} */ (el)]);
      }
    } catch (err) {
      box.replaceChildren(h("p.error", null, failure(err)));
    }
  };
  const chooser = /** @type {HTMLSelectElement} */ (
    h(
      "select.r-review-seat",
      { "aria-label": t("rv_seat") },
      h("option", { value: "", selected: o.seat === null }, t("rv_none")),
      ...o.names.map((name, i) => h("option", { value: String(i), selected: o.seat === i }, t("rv_of", name))),
    )
  );
  chooser.addEventListener("change", () => {
    const seat = chooser.value === "" ? null : Number(chooser.value);
    o.chosen(seat);
    show(seat);
  });
  show(o.seat);
  const at = (/** @type {number} */ frame) => {
    for (const el of box.querySelectorAll(".rv-row.current")) el.classList.remove("current");
    for (const el of marks.querySelectorAll(".r-mark.current")) el.classList.remove("current");
    for (const el of byFrame.get(frame) || []) el.classList.add("current");
    for (const el of marks.querySelectorAll(`.r-mark[data-frame="${frame}"]`)) el.classList.add("current");
  };
  return { chooser: h("label.r-review-label", null, chooser), marks, box, at };
}

/** A replay of game `id`, with seat `reviewSeat`'s review (or none), opened at the deal or,
 * with `startStep`, at the position before the record's action `startStep` (a drill's puzzle).
 * @param {HTMLElement} root @param {number} id @param {number|null} [reviewSeat]
 * @param {number|null} [startStep] @returns {() => void} stop */
export function replayScreen(root, id, reviewSeat = null, startStep = null) {
  let stopped = false;
  /** @type {number|undefined} */
  let timer;
  /** @type {Array<() => void>} */
  const stopAll = [];
  root.replaceChildren(h("div.panel", null, h("h2", null, t("r_title")), h("div.spinner")));
  (async () => {
    const game = await api("GET", `/games/${id}`);
    if (!game.finished) throw new ApiError(409, "the game is not finished", "not-finished");
    const data = await api("POST", "/web/replay", game.record);
    if (stopped) return;
    /** @type {Frame[]} */
    const frames = data.frames;
    /** @type {string[]} */
    const names = replayNames(data.seats || [null, null], data.levels);
    const actions = /** @type {string[]} */ ((game.record && game.record.actions) || []);
    let at = startStep === null ? 0 : Math.min(frames.length - 1, frameOfStep(actions, startStep));
    let speed = Number(localStorage.getItem("erren.replaySpeed") || "1");
    let playing = false;
    const stage = h("div.replay-stage");
    const step = h("span.r-step");
    const playBtn = h("button.primary.r-play", { type: "button" }, t("r_play"));
    const range = /** @type {HTMLInputElement} */ (h("input.r-range", { type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": t("r_step_label") }));
    const speedSel = /** @type {HTMLSelectElement} */ (h("select.r-speed", { "aria-label": t("r_speed") }, ...[0.5, 1, 2, 4].map((s) => h("option", { value: s, selected: s === speed }, `${s}×`))));
    // the family's marks and indicators see the whole hand's events (a 财神 shows from the start)
    const ctx = { events: frames.flatMap((f) => f.events), seat: 0, legal: [] };

    const draw = () => {
      const f = frames[at];
      /** @type {{seat: number, index: number}|null} */
      let lastDiscard = null;
      for (let i = at; i >= 0 && !lastDiscard; i -= 1) {
        const ev = [...frames[i].events].reverse().find((e) => e.kind === "discard" || e.kind === "ting");
        if (ev) lastDiscard = { seat: ev.player, index: (f.discards[ev.player] || []).length - 1 };
      }
      const moves = f.events
        .filter((e) => e.player >= 0 && !["draw", "deal"].includes(e.kind))
        .map((e) => describeEvent(e, -1, names))
        .join(" · ");
      const board = familyBoard(data.ruleset, f, ctx);
      stage.replaceChildren(
        boardEl({
          family: data.ruleset,
          me: 0,
          names,
          state: f,
          open: true,
          ...board,
          lastDiscard,
          oppDrew: false,
          online: [true, true],
          ready: [true, true],
          handNo: handNo(game.record),
          timerEnd: null,
          lastText: moves,
        }),
      );
      if (at === frames.length - 1 && data.result) {
        stage.append(
          settlementEl({
            end: replayEnd(game, data.result),
            me: typeof game.seat === "number" ? game.seat : -1,
            family: data.ruleset,
            names,
            options: data.options || {},
            streak: f.streak || 0,
            marks: board.marks,
            waiting: false,
            opponentReady: true,
            closed: true,
            onNext: null,
            onLeave: null,
            onReplay: null,
          }),
        );
      }
      step.textContent = t("r_step", at, frames.length - 1);
      range.value = String(at);
      review.at(at);
    };
    const tick = () => {
      if (!playing || stopped) return;
      if (at < frames.length - 1) {
        at += 1;
        draw();
        timer = window.setTimeout(tick, 1000 / speed);
      } else {
        playing = false;
        playBtn.textContent = t("r_play");
      }
    };
    playBtn.addEventListener("click", () => {
      playing = !playing;
      playBtn.textContent = playing ? t("r_pause") : t("r_play");
      window.clearTimeout(timer);
      if (playing) {
        if (at >= frames.length - 1) at = 0;
        tick();
      }
    });
    range.addEventListener("input", () => {
      at = Number(range.value);
      draw();
    });
    speedSel.addEventListener("change", () => {
      speed = Number(speedSel.value);
      localStorage.setItem("erren.replaySpeed", String(speed));
    });
    const go = (/** @type {number} */ d) => {
      at = Math.max(0, Math.min(frames.length - 1, at + d));
      draw();
    };
    let shownSeat = reviewSeat;
    const linkEl = h("span.r-link", null, replayLink(id, shownSeat));
    const review = replayReview({
      id,
      actions,
      frames: frames.length,
      names,
      seat: reviewSeat,
      jump: (frame) => {
        at = Math.max(0, Math.min(frames.length - 1, frame));
        draw();
      },
      chosen: (seat) => {
        shownSeat = seat;
        linkEl.textContent = replayLink(id, seat);
        history.replaceState(null, "", replayLink(id, seat)); // the address to share, no new screen
      },
    });
    const share = async () => {
      const link = replayLink(id, shownSeat);
      try {
        await navigator.clipboard.writeText(link);
        toast(t("r_copied"));
      } catch {
        window.prompt(t("r_share"), link);
      }
    };
    const keys = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "ArrowRight") go(1);
      else if (e.key === "ArrowLeft") go(-1);
      else if (e.key === " ") {
        playBtn.click();
        e.preventDefault();
      }
    };
    document.addEventListener("keydown", keys);
    const cleanup = () => document.removeEventListener("keydown", keys);
    stopAll.push(cleanup);
    const controls = h(
      "div.replay-controls",
      null,
      h("button.r-first", { type: "button", onclick: () => go(-frames.length), title: t("r_first"), "aria-label": t("r_first") }, replayIcon(FIRST)),
      h("button.r-prev", { type: "button", onclick: () => go(-1), title: t("r_prev") }, "◀"),
      playBtn,
      h("button.r-next", { type: "button", onclick: () => go(1), title: t("r_next") }, "▶"),
      h("button.r-last", { type: "button", onclick: () => go(frames.length), title: t("r_last"), "aria-label": t("r_last") }, replayIcon(LAST)),
      h("span.r-track", null, range, review.marks),
      step,
      h("label.r-speed-label", null, t("r_speed"), " ", speedSel),
      review.chooser,
      h("button.ghost.r-share", { type: "button", onclick: share }, t("r_share")),
      downloadLinks(id),
    );
    root.replaceChildren(h("div.replay", null, h("div.replay-head", null, h("h2", null, `${t("r_title")} #${id} · ${familyName(data.ruleset)}`), linkEl), controls, stage, review.box));
    draw();
  })().catch((err) => {
    root.replaceChildren(h("div.panel", null, h("h2", null, t("r_title")), h("p.error", null, failure(err)), h("a.button", { href: "#/" }, t("back_lobby"))));
  });
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    stopAll.forEach((f) => f());
  };
}
