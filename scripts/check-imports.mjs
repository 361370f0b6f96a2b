// Layers you can check: reads the module paths each Rust file of a crate
// names (`use crate::…`, `use super::…`, `use self::…`, a child module's
// name, and the same paths written inline in code) and fails when the files
// import each other in a circle. A lower file never imports its users; a
// circle means a concept's lowest home is missing.
//
//   node scripts/check-imports.mjs            # the engine (src/) and the shell (durable-objects/src/)
//   node scripts/check-imports.mjs DIR...     # crates whose lib.rs is in DIR
//
// An edge runs from the file that names a path to the file that defines the
// item: a path through a module that re-exports the item (`pub use a::B`)
// is followed to `a` (and the re-exporting file imports `a` too). Comments,
// string literals and `#[cfg(test)]` modules are not read: tests may reach
// anywhere. Prints each circle as `a.rs → b.rs → a.rs`.
//
// A circle that touches an untied layer (UNTIED below: the circles issue 32
// named, and the whole shell) fails the check (exit 1). A circle elsewhere is
// still printed, as one not yet untied, and does not fail it: the engine's
// core (api, stream, route, catalog, delivery, …) still forms one, and the
// next refactor moves its files into UNTIED as it unties them.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** How many re-exports one path may pass through before it counts as defined where it stands. */
const MAX_REEXPORT_HOPS = 16;
/** Files one crate may hold (a bound on the walk, far above Tributary's ~400). */
const MAX_FILES = 5_000;
/** Files (a path, or a folder ending in `/`, from the repository root) that no import circle may touch. */
export const UNTIED = [
  "durable-objects/src/",
  "src/auth_tokens.rs",
  "src/live/mod.rs",
  "src/processor/",
  "src/source/",
];

/** Whether a circle (repository-relative files) touches an untied layer. */
export function touchesUntied(files, untied = UNTIED) {
  return files.some((file) => untied.some((prefix) => (prefix.endsWith("/") ? file.startsWith(prefix) : file === prefix)));
}

/** Replaces comments and string/char literals with spaces, keeping line breaks. */
export function stripCommentsAndStrings(source) {
  let out = "";
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      let depth = 0;
      do {
        if (source[i] === "/" && source[i + 1] === "*") { depth++; i += 2; }
        else if (source[i] === "*" && source[i + 1] === "/") { depth--; i += 2; }
        else { if (source[i] === "\n") out += "\n"; i++; }
      } while (i < n && depth > 0);
    } else if (c === "r" && /^r#*"/.test(source.slice(i, i + 40)) && !/\w/.test(source[i - 1] ?? "")) {
      const hashes = /^r(#*)"/.exec(source.slice(i, i + 40))[1];
      const end = source.indexOf(`"${hashes}`, i + 2 + hashes.length);
      const stop = end < 0 ? n : end + 1 + hashes.length;
      out += source.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"') {
      i++;
      while (i < n && source[i] !== '"') {
        if (source[i] === "\\") i++;
        else if (source[i] === "\n") out += "\n";
        i++;
      }
      i++;
      out += '""';
    } else if (c === "'" && /^'(\\.|[^\\'])'/.test(source.slice(i, i + 12))) {
      const m = /^'(\\[^']*|[^\\'])'/.exec(source.slice(i, i + 12));
      i += m ? m[0].length : 3;
      out += "' '";
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Removes `#[cfg(test)]` items (a `mod … { … }` block or a `mod …;` line). */
export function stripTestModules(source) {
  let out = source;
  for (let guard = 0; guard < 1_000; guard++) {
    const at = out.search(/#\[cfg\(test\)\]/);
    if (at < 0) return out;
    const rest = out.slice(at);
    const open = /#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*([{;])/.exec(rest);
    if (!open || open.index !== 0) {
      out = out.slice(0, at) + out.slice(at + "#[cfg(test)]".length);
      continue;
    }
    let end = open[0].length;
    if (open[1] === "{") {
      let depth = 1;
      while (end < rest.length && depth > 0) {
        if (rest[end] === "{") depth++;
        else if (rest[end] === "}") depth--;
        end++;
      }
    }
    out = out.slice(0, at) + rest.slice(end);
  }
  return out;
}

/** Flattens a use tree (`a::{b, c::{d, e as f}, g::*}`) into paths of segments. */
export function flattenUseTree(tree) {
  const text = tree.replace(/\s+/g, "");
  const paths = [];
  const walk = (prefix, part) => {
    const brace = part.indexOf("{");
    if (brace < 0) {
      const name = part.replace(/as\w+$/, "").split("::").filter(Boolean);
      paths.push([...prefix, ...name]);
      return;
    }
    const head = part.slice(0, brace).split("::").filter(Boolean);
    const inner = part.slice(brace + 1, part.lastIndexOf("}"));
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= inner.length; i++) {
      const c = inner[i];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if ((c === "," && depth === 0) || i === inner.length) {
        const item = inner.slice(start, i);
        if (item) walk([...prefix, ...head], item);
        start = i + 1;
      }
    }
  };
  walk([], text.replace(/\bas(?=\w)/g, "as"));
  return paths.map((path) => path.map((segment) => segment.replace(/as\w+$/, "")));
}

/** The module path of a file: `src/a/b.rs` → ["a", "b"], `src/a/mod.rs` → ["a"]. */
function modulePathOf(srcDir, file) {
  const parts = relative(srcDir, file).replace(/\.rs$/, "").split("/");
  if (parts.at(-1) === "mod" || (parts.length === 1 && parts[0] === "lib")) parts.pop();
  return parts;
}

function rustFiles(dir, found = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) rustFiles(path, found);
    else if (name.endsWith(".rs")) found.push(path);
    if (found.length > MAX_FILES) throw new Error(`more than ${MAX_FILES} files under ${dir}`);
  }
  return found;
}

/** Reads one crate: its modules, what each file names, and what each re-exports. */
export function readCrate(srcDir) {
  const modules = new Map(); // "a::b" → { file, children, reexports: Map(name → absolute path), named: [absolute paths] }
  for (const file of rustFiles(srcDir)) {
    const path = modulePathOf(srcDir, file);
    modules.set(path.join("::"), { file, path, code: stripTestModules(stripCommentsAndStrings(readFileSync(file, "utf8"))) });
  }
  for (const module of modules.values()) {
    module.children = new Set([...module.code.matchAll(/\bmod\s+(\w+)\s*;/g)].map((m) => m[1]));
    const absolute = (segments) => absolutePath(module, segments);
    module.reexports = new Map();
    module.named = [];
    const useStatement = /\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);/g;
    for (const m of module.code.matchAll(useStatement)) {
      for (const segments of flattenUseTree(m[2])) {
        const path = absolute(segments);
        if (!path) continue;
        module.named.push(path);
        const last = segments.at(-1);
        if (m[1] && last !== "*" && last !== "self") module.reexports.set(last, path);
        if (m[1] && last === "*") module.reexports.set("*", [...(module.reexports.get("*") ?? []), path.slice(0, -1)]);
      }
    }
    const inline = module.code.replace(useStatement, " ");
    for (const m of inline.matchAll(/(?<![\w:])((?:crate|super|self)(?:::\w+)+|\w+(?:::\w+)+)/g)) {
      const path = absolute(m[1].split("::"));
      if (path) module.named.push(path);
    }
  }
  return modules;
}

/** A path as written in `module` → segments from the crate root, or undefined (another crate, std). */
function absolutePath(module, segments) {
  const [first, ...rest] = segments;
  if (first === "crate") return rest;
  if (first === "self") return [...module.path, ...rest];
  if (first === "super") {
    let base = module.path.slice(0, -1);
    let tail = rest;
    while (tail[0] === "super") { base = base.slice(0, -1); tail = tail.slice(1); }
    return [...base, ...tail];
  }
  if (module.children.has(first)) return [...module.path, ...segments];
  return undefined;
}

/** The file defining what an absolute path names, following re-exports. */
export function fileOf(modules, segments, hops = 0) {
  let at = [];
  let index = 0;
  while (index < segments.length && modules.has([...at, segments[index]].join("::"))) {
    at = [...at, segments[index]];
    index++;
  }
  const module = modules.get(at.join("::"));
  if (!module) return undefined;
  const item = segments[index];
  if (item === undefined || item === "*" || hops >= MAX_REEXPORT_HOPS) return module.file;
  const reexport = module.reexports.get(item);
  if (reexport) return fileOf(modules, [...reexport, ...segments.slice(index + 1)], hops + 1) ?? module.file;
  return module.file;
}

/** Whether `file` is `module`'s own ancestor (the `mod.rs`/`lib.rs` of a folder it lives in). */
function isAncestor(module, modules, file) {
  for (let depth = 0; depth < module.path.length; depth++) {
    if (modules.get(module.path.slice(0, depth).join("::"))?.file === file) return true;
  }
  return false;
}

/** Edges file → files it imports (never itself, nor a folder's face it lives in). */
export function importGraph(modules) {
  const graph = new Map();
  for (const module of modules.values()) {
    const targets = new Set();
    for (const path of module.named) {
      const file = fileOf(modules, path);
      if (file && file !== module.file && !isAncestor(module, modules, file)) targets.add(file);
    }
    graph.set(module.file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan, iterative). */
export function circles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter); low.set(root, counter); counter++;
    stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const frame = work.at(-1);
      const [node, i] = frame;
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1]++;
        const target = next[i];
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter); low.set(target, counter); counter++;
          stack.push(target); onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work.at(-1)[0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do { member = stack.pop(); onStack.delete(member); component.push(member); } while (member !== node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/** One cycle through a component, as a list of files ending where it began (breadth-first, shortest). */
export function cycleThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) { previous.set(target, node); queue.push(target); }
    }
  }
  return component;
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const crates = argv.length > 0 ? argv : ["src", "durable-objects/src"];
  let failed = false;
  for (const dir of crates) {
    const srcDir = resolve(root, dir);
    if (!existsSync(join(srcDir, "lib.rs"))) throw new Error(`${dir}: no lib.rs`);
    const graph = importGraph(readCrate(srcDir));
    const found = circles(graph);
    const name = (file) => relative(root, file);
    let failing = 0;
    for (const component of found) {
      const files = component.map(name);
      const fails = touchesUntied(files);
      if (fails) failing++;
      failed ||= fails;
      const cycle = cycleThrough(graph, component).map(name).join(" → ");
      const what = fails ? "import circle through an untied layer" : "import circle not yet untied (does not fail the check)";
      (fails ? console.error : console.log)(`${what} in ${dir} (${component.length} files): ${cycle}`);
      if (component.length > 2) (fails ? console.error : console.log)(`  all of: ${files.join(", ")}`);
    }
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    console.log(`${dir}: ${graph.size} files, ${edges} imports between files, ${found.length} circles, ${failing} through untied layers`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
