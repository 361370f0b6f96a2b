// Prints every aim the benchmarks of one `scripts/bench` run reported
// (bench/lib.mjs reportAim, one JSON line each in BENCH_AIMS_FILE) as one
// table: label, measured, aim, met / not met, and the load average then.
import { readFileSync } from "node:fs";
import { printTable } from "./lib.mjs";

const file = process.argv[2] ?? process.env.BENCH_AIMS_FILE;
if (!file) throw new Error("usage: node bench/aims.mjs <aims.jsonl>");
const aims = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));
const shown = (value) => (Number.isFinite(value) ? (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2)) : String(value));
const argued = aims.filter((a) => a.argued).length;
console.log(
  `aims of this run (issue 20), ${aims.filter((a) => a.met).length} of ${aims.length} met` +
    (argued ? `, ${argued} not reachable on this platform (the floor's own figure misses them; their ratio to the floor is the aim)` : ""),
);
printTable(
  [{ title: "aim" }, { title: "measured" }, { title: "target" }, { title: "the floor's own" }, { title: "met" }, { title: "load 1m" }],
  aims.map((a) => [
    a.label + (a.note ? ` (${a.note})` : ""),
    shown(a.measured),
    `${a.op === ">=" ? "≥" : "≤"} ${a.target}`,
    Number.isFinite(a.floor) ? shown(a.floor) : "",
    a.met ? "met" : a.argued ? "floor misses" : "NOT MET",
    a.load1.toFixed(2),
  ]),
);
