#!/usr/bin/env node
// A tiny mjai bot for erren (two-seat mjai profile, docs/mjai-2p.md), in plain Node.js.
//
// erren writes one JSON message a line to stdin.  A message that carries "erren:legal" (the
// seat's legal moves, in mjai form) asks for a decision: answer it with exactly one line, one
// of those moves, or {"type":"none"} to pass.  Messages without it get no answer.
//
// The play: win when it can; otherwise throw the tile just drawn (tsumogiri) or, failing that,
// the first legal discard; pass on every claim; in any other decision, the first legal move.
"use strict";

const readline = require("node:readline");

function decide(legal) {
  const of = (type) => legal.filter((move) => move.type === type);
  const win = of("hora");
  if (win.length) return win[0];
  const discards = of("dahai");
  if (discards.length) return discards.find((move) => move.tsumogiri) || discards[0];
  const pass = of("none");
  if (pass.length) return pass[0];
  return legal[0];
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  const legal = message["erren:legal"];
  if (!Array.isArray(legal)) return; // nothing to decide: keep listening
  process.stdout.write(JSON.stringify(legal.length ? decide(legal) : { type: "none" }) + "\n");
});
input.on("close", () => process.exit(0));
