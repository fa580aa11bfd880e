// The table's sounds, synthesised by Web Audio (oscillators, envelopes, a burst of filtered
// noise): nothing is fetched.  One named cue per moment of play, each distinct; a mute switch
// remembered by the browser (localStorage).  The AudioContext is made on the first user gesture
// (browsers refuse sound before one) and every failure is silent: no audio, no error.
//
// Each cue that sounds is announced as a `erren:sound` event on window (detail: the cue), for
// the browser tests and anyone curious.

/** @typedef {"draw"|"discard"|"chi"|"peng"|"gang"|"hu"|"warn"|"win"|"lose"} Cue */
/** @typedef {import("./table.js").GameEvent} GameEvent */

const MUTE_KEY = "erren.sound";

/** @type {AudioContext|null} */
let ctx = null;
/** @type {AudioNode|null} */
let out = null;
/** @type {AudioBuffer|null} */
let noise = null;
let unlocked = false;

/** Whether the player switched the sounds off (remembered per browser). @returns {boolean} */
export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "off";
  } catch {
    return false;
  }
}

/** Switch the sounds on or off and remember it. @param {boolean} off */
export function setMuted(off) {
  try {
    if (off) localStorage.setItem(MUTE_KEY, "off");
    else localStorage.removeItem(MUTE_KEY);
  } catch {
    /* storage refused: the switch holds for this page only */
  }
  if (!off) unlock();
}

/** Make (or wake) the AudioContext; only ever called from a user gesture. */
function unlock() {
  unlocked = true;
  if (muted()) return;
  try {
    if (!ctx) {
      const Ctor = window.AudioContext;
      if (typeof Ctor !== "function") return;
      ctx = new Ctor();
      const comp = ctx.createDynamicsCompressor();
      const master = ctx.createGain();
      master.gain.value = 0.6;
      master.connect(comp);
      comp.connect(ctx.destination);
      out = master;
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  } catch {
    ctx = null;
    out = null;
  }
}

for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true, passive: true });

/** White noise, 0.25 s, from a small fixed-seed generator (the same hiss every time). @param {AudioContext} c @returns {AudioBuffer} */
function noiseBuffer(c) {
  if (noise) return noise;
  const buf = c.createBuffer(1, Math.floor(c.sampleRate * 0.25), c.sampleRate);
  const data = buf.getChannelData(0);
  let seed = 0x2f6b1d;
  for (let i = 0; i < data.length; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (seed / 0xffffffff) * 2 - 1;
  }
  noise = buf;
  return buf;
}

/**
 * One note: an oscillator through a gain envelope (5 ms attack, exponential decay).
 * @param {AudioContext} c @param {AudioNode} dest
 * @param {{type?: OscillatorType, freq: number, to?: number, at: number, dur: number, vol: number}} o
 */
function tone(c, dest, o) {
  const t0 = c.currentTime + o.at;
  const osc = c.createOscillator();
  const g = c.createGain();
  osc.type = o.type || "sine";
  osc.frequency.setValueAtTime(o.freq, t0);
  if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, t0 + o.dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(o.vol, t0 + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + o.dur);
  osc.connect(g);
  g.connect(dest);
  osc.start(t0);
  osc.stop(t0 + o.dur + 0.02);
}

/**
 * A click of tile on tile: a burst of band-passed noise.
 * @param {AudioContext} c @param {AudioNode} dest
 * @param {{at: number, dur: number, vol: number, freq: number, q?: number}} o
 */
function click(c, dest, o) {
  const t0 = c.currentTime + o.at;
  const src = c.createBufferSource();
  src.buffer = noiseBuffer(c);
  const bp = c.createBiquadFilter();
  bp.type = "bandpass";
  bp.frequency.value = o.freq;
  bp.Q.value = o.q || 1.5;
  const g = c.createGain();
  g.gain.setValueAtTime(o.vol, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + o.dur);
  src.connect(bp);
  bp.connect(g);
  g.connect(dest);
  src.start(t0);
  src.stop(t0 + o.dur + 0.02);
}

/** The notes of each cue: every one distinct in shape (a tick, a clack, a rising pair, a
 * double knock, a gong, a bright arpeggio, a beep, a fanfare, a falling line).
 * @type {Record<Cue, (c: AudioContext, d: AudioNode, soft: boolean) => void>} */
const CUES = {
  draw: (c, d, soft) => {
    click(c, d, { at: 0, dur: 0.04, vol: soft ? 0.25 : 0.5, freq: 3200, q: 2 });
    tone(c, d, { type: "sine", freq: 1500, at: 0, dur: 0.05, vol: soft ? 0.05 : 0.1 });
  },
  discard: (c, d) => {
    click(c, d, { at: 0, dur: 0.07, vol: 0.9, freq: 1700, q: 3 });
    tone(c, d, { type: "triangle", freq: 340, to: 190, at: 0, dur: 0.09, vol: 0.3 });
  },
  chi: (c, d) => {
    tone(c, d, { type: "triangle", freq: 659, at: 0, dur: 0.09, vol: 0.35 });
    tone(c, d, { type: "triangle", freq: 880, at: 0.08, dur: 0.12, vol: 0.35 });
  },
  peng: (c, d) => {
    for (const at of [0, 0.11]) {
      tone(c, d, { type: "square", freq: 294, to: 220, at, dur: 0.09, vol: 0.16 });
      click(c, d, { at, dur: 0.05, vol: 0.5, freq: 900 });
    }
  },
  gang: (c, d) => {
    // a gong: inharmonic partials, slow decay
    for (const [ratio, vol] of [[1, 0.4], [2.41, 0.18], [3.93, 0.1]]) tone(c, d, { type: "sine", freq: 130 * ratio, at: 0, dur: 0.55, vol });
    click(c, d, { at: 0, dur: 0.08, vol: 0.6, freq: 600 });
  },
  hu: (c, d) => {
    [784, 988, 1175, 1568].forEach((freq, i) => tone(c, d, { type: "sawtooth", freq, at: i * 0.05, dur: 0.18, vol: 0.12 }));
  },
  warn: (c, d) => {
    tone(c, d, { type: "square", freq: 1046, at: 0, dur: 0.07, vol: 0.12 });
  },
  win: (c, d) => {
    [523, 659, 784].forEach((freq, i) => tone(c, d, { type: "triangle", freq, at: i * 0.11, dur: 0.16, vol: 0.35 }));
    for (const freq of [523, 659, 784, 1046]) tone(c, d, { type: "triangle", freq, at: 0.33, dur: 0.6, vol: 0.2 });
  },
  lose: (c, d) => {
    [392, 311, 262].forEach((freq, i) => tone(c, d, { type: "sine", freq, at: i * 0.16, dur: 0.24, vol: 0.3 }));
  },
};

/**
 * Sound a cue now (or `delay` seconds from now), unless muted or audio is unavailable.
 * @param {Cue} cue @param {{soft?: boolean, delay?: number}} [o]
 */
export function play(cue, o = {}) {
  if (muted() || !unlocked) return;
  if (!ctx) unlock();
  const c = ctx;
  const dest = out;
  if (!c || !dest) return;
  try {
    if (o.delay) {
      const d = c.createDelay(2);
      d.delayTime.value = o.delay;
      d.connect(dest);
      CUES[cue](c, d, !!o.soft);
    } else CUES[cue](c, dest, !!o.soft);
    window.dispatchEvent(new CustomEvent("erren:sound", { detail: cue }));
  } catch {
    /* audio refused: play on in silence */
  }
}

/** The move cues, the strongest first: of a batch of events only one sounds. @type {Cue[]} */
const RANK = ["hu", "gang", "peng", "chi", "discard", "draw"];

/**
 * The cue of an event the seat received, if it has one: the moves (draw, discard, claims, the
 * win call) and the end of the hand (the winner's fanfare, the loser's falling line).
 * @param {GameEvent} ev @param {number} seat @returns {Cue|null}
 */
export function cueOf(ev, seat) {
  switch (ev.kind) {
    case "draw":
      return "draw";
    case "discard":
    case "ting":
      return "discard";
    case "chi":
    case "peng":
      return ev.kind;
    case "minggang":
    case "angang":
    case "jiagang":
      return "gang";
    case "hu":
    case "zimo":
      return "hu";
    case "settlement": {
      const r = ev.result || {};
      if (r.kind !== "win") return null;
      return r.winner === seat ? "win" : "lose";
    }
    default:
      return null;
  }
}

/**
 * Sound a batch of new events: the strongest move among them, then the end of the hand (if it
 * came) a moment later, so a win call is heard before its fanfare.
 * @param {GameEvent[]} events @param {number} seat
 */
export function soundEvents(events, seat) {
  /** @type {Cue|null} */
  let move = null;
  let moveSeat = -1;
  /** @type {Cue|null} */
  let end = null;
  for (const ev of events) {
    const cue = cueOf(ev, seat);
    if (cue === "win" || cue === "lose") end = cue;
    else if (cue && (move === null || RANK.indexOf(cue) < RANK.indexOf(move))) {
      move = cue;
      moveSeat = typeof ev.player === "number" ? ev.player : -1;
    }
  }
  if (move) play(move, { soft: move === "draw" && moveSeat !== seat });
  if (end) play(end, { delay: move ? 0.35 : 0 });
}

/** The seconds already beeped, by timer. @type {Set<string>} */
const warned = new Set();

/**
 * The last seconds of the player's own timer: one beep per second from 5 down to 1 (called by
 * the countdown's refresh; `key` names the timer, so each of its seconds beeps once).
 * @param {string} key @param {number} left
 */
export function warnTimer(key, left) {
  if (left < 1 || left > 5) return;
  const at = `${key}:${left}`;
  if (warned.has(at)) return;
  if (warned.size > 60) warned.clear();
  warned.add(at);
  play("warn");
}
