// Which screen is current: each navigation to a new screen bumps the route's generation (app.js
// `route`), and a screen that draws after waiting for the server draws only while the generation
// it started in is still current — a slow answer never draws over a screen opened meanwhile.

let generation = 0;

/** A new screen is being opened: bump the generation. @returns {() => boolean} whether it is still current */
export function newRoute() {
  generation += 1;
  return screenToken();
}

/** The current screen's token, taken when a screen starts (before its first wait).
 * @returns {() => boolean} whether that screen is still the current one */
export function screenToken() {
  const mine = generation;
  return () => mine === generation;
}
