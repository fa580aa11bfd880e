// A line over points in order, drawn as an SVG of our own (the profile's bean balance and its
// review trends): two grid lines at the top and bottom of the span with their labels, the
// first and last points' labels under the axis, and the line; the caller adds its dots.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element. @param {string} tag @param {Record<string, string|number>} attrs @param {string} [text] @returns {SVGElement} */
export function svgEl(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * @typedef {{width: number, height: number, pad: number, left: number, bottom: number}} ChartBox
 * The drawing's size and margins (the left one holds the value labels, the bottom one the
 * first and last points' labels).
 * @typedef {{box: ChartBox, low: number, high: number, label: (v: number) => string,
 *   first: string, last: string|null, attrs: Record<string, string|number>}} ChartSpec
 * ``low`` < ``high``: the vertical span; ``label`` writes a value; ``first``/``last`` label the
 * first and last points (``last`` null: one point); ``attrs`` go on the ``svg``.
 */

/**
 * The chart of ``values`` (in order) and where a point falls in it.
 * @param {number[]} values @param {ChartSpec} o
 * @returns {{svg: SVGSVGElement, x: (i: number) => number, y: (v: number) => number}}
 */
export function lineChart(values, o) {
  const { width: W, height: H, pad: PAD, left: LEFT, bottom: BOTTOM } = o.box;
  const span = o.high - o.low;
  const x = (/** @type {number} */ i) => LEFT + (values.length === 1 ? (W - LEFT - PAD) / 2 : (i * (W - LEFT - PAD)) / (values.length - 1));
  const y = (/** @type {number} */ v) => PAD + ((o.high - v) * (H - PAD - BOTTOM)) / span;
  const svg = /** @type {SVGSVGElement} */ (svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", ...o.attrs }));
  for (const v of [o.high, o.low]) {
    svg.append(svgEl("line", { x1: LEFT, x2: W - PAD, y1: y(v), y2: y(v), class: "pf-grid" }));
    svg.append(svgEl("text", { x: LEFT - 6, y: y(v) + 4, "text-anchor": "end", class: "pf-axis" }, o.label(v)));
  }
  svg.append(svgEl("text", { x: LEFT, y: H - 4, "text-anchor": "start", class: "pf-axis" }, o.first));
  if (o.last !== null) svg.append(svgEl("text", { x: W - PAD, y: H - 4, "text-anchor": "end", class: "pf-axis" }, o.last));
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(svgEl("polyline", { points: line, class: "pf-line", fill: "none" }));
  return { svg, x, y };
}
