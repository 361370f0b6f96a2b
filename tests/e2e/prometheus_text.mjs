// A strict parser of the Prometheus text exposition format 0.0.4, for the
// project metrics test (docs/design.md §11) where `promtool` is not installed:
// every line is a `# HELP`, a `# TYPE` or a sample; names and label names
// match the format's grammar; label values use only the `\\`, `\"`, `\n`
// escapes; a family's TYPE and HELP come once, before its samples, and its
// samples are contiguous; no series appears twice; and promtool's lints
// (counters end in `_total`, every family has help, snake_case names) hold.
// Throws on the first violation; returns Map name → {type, help, samples}.
import { execFileSync } from "node:child_process";

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const VALUE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;

function fail(lineNumber, line, why) {
  throw new Error(`line ${lineNumber}: ${why}: ${JSON.stringify(line)}`);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the `{`); returns [labels, end]. */
function readLabels(text, start, lineNumber) {
  const labels = {};
  let at = start + 1;
  for (let guard = 0; guard < text.length; guard++) {
    if (text[at] === "}") return [labels, at + 1];
    const eq = text.indexOf("=", at);
    if (eq < 0) fail(lineNumber, text, "label without =");
    const name = text.slice(at, eq);
    if (!LABEL.test(name)) fail(lineNumber, text, `bad label name ${name}`);
    if (name in labels) fail(lineNumber, text, `label ${name} twice`);
    if (text[eq + 1] !== '"') fail(lineNumber, text, "label value not quoted");
    let value = "";
    let i = eq + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === "\\") {
        const next = text[++i];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else fail(lineNumber, text, `bad escape \\${next}`);
      } else value += text[i];
    }
    if (text[i] !== '"') fail(lineNumber, text, "unterminated label value");
    labels[name] = value;
    at = i + 1;
    if (text[at] === ",") at++;
    else if (text[at] !== "}") fail(lineNumber, text, "expected , or }");
  }
  fail(lineNumber, text, "unterminated labels");
}

export function parsePrometheus(text) {
  if (!text.endsWith("\n")) throw new Error("exposition must end with a newline");
  const families = new Map();
  const closed = new Set();
  const seenSeries = new Set();
  let current = null;
  const family = (name) => {
    if (!families.has(name)) families.set(name, { type: undefined, help: undefined, samples: [] });
    return families.get(name);
  };
  const lines = text.slice(0, -1).split("\n");
  lines.forEach((line, index) => {
    const n = index + 1;
    if (line.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) return; // a plain comment
      const [, keyword, name, rest] = match;
      if (!NAME.test(name)) fail(n, line, "bad metric name");
      const f = family(name);
      if (f.samples.length > 0) fail(n, line, `${keyword} after samples of ${name}`);
      if (keyword === "TYPE") {
        if (f.type !== undefined) fail(n, line, "TYPE twice");
        if (!TYPES.has(rest)) fail(n, line, "unknown type");
        f.type = rest;
      } else {
        if (f.help !== undefined) fail(n, line, "HELP twice");
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ""))) fail(n, line, "bad escape in HELP");
        f.help = rest;
      }
      if (current !== name && current !== null) closed.add(current);
      if (closed.has(name)) fail(n, line, `family ${name} split`);
      current = name;
      return;
    }
    if (line === "") fail(n, line, "empty line");
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) fail(n, line, "no metric name");
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) fail(n, line, "bad metric name");
    let labels = {};
    let at = nameEnd;
    if (line[at] === "{") [labels, at] = readLabels(line, at, n);
    if (line[at] !== " ") fail(n, line, "expected a space before the value");
    const [value, timestamp, extra] = line.slice(at + 1).split(" ");
    if (!VALUE.test(value ?? "")) fail(n, line, "bad value");
    if (timestamp !== undefined && !/^-?\d+$/.test(timestamp)) fail(n, line, "bad timestamp");
    if (extra !== undefined) fail(n, line, "trailing text");
    if (current !== name) {
      if (current !== null) closed.add(current);
      if (closed.has(name)) fail(n, line, `samples of ${name} not contiguous`);
      current = name;
    }
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seenSeries.has(key)) fail(n, line, "series twice");
    seenSeries.add(key);
    family(name).samples.push({ labels, value: Number(value) });
  });
  for (const [name, f] of families) {
    if (f.type === undefined) throw new Error(`${name} has no TYPE`);
    if (!f.help) throw new Error(`${name} has no help (promtool lint)`);
    if (f.type === "counter" && !name.endsWith("_total")) throw new Error(`counter ${name} must end in _total`);
    if (!/^[a-z_:][a-z0-9_:]*$/.test(name)) throw new Error(`${name} is not snake_case (promtool lint)`);
    if (f.type === "counter" && f.samples.some((s) => s.value < 0)) throw new Error(`counter ${name} below 0`);
  }
  return families;
}

/** Runs `promtool check metrics` on `text` when promtool is installed; returns whether it ran. */
export function promtoolCheck(text) {
  try {
    execFileSync("promtool", ["--version"], { stdio: "ignore" });
  } catch {
    return false;
  }
  execFileSync("promtool", ["check", "metrics"], { input: text, stdio: ["pipe", "pipe", "pipe"] });
  return true;
}

/** The value of `name` whose labels include `labels`; undefined when absent. */
export function sample(families, name, labels) {
  const f = families.get(name);
  const found = f?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value;
}
