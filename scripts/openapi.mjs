// The OpenAPI document (DESIGN.md §2, issue 22): openapi.yaml is written by
// hand; openapi.json is generated from it (the worker embeds it for
// `GET /v1/openapi.json`, the native route test reads it).
//   node scripts/openapi.mjs          regenerate openapi.json
//   node scripts/openapi.mjs --check  fail if openapi.json is not current
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const yamlPath = join(root, "openapi.yaml");
const jsonPath = join(root, "openapi.json");
const generated = `${JSON.stringify(parse(readFileSync(yamlPath, "utf8")), null, 2)}\n`;

if (process.argv.includes("--check")) {
  const committed = readFileSync(jsonPath, "utf8");
  if (committed !== generated) {
    console.error("openapi.json is not current: run `node scripts/openapi.mjs` and commit it");
    process.exit(1);
  }
  console.log("openapi.json is current with openapi.yaml");
} else {
  writeFileSync(jsonPath, generated);
  console.log(`wrote ${jsonPath}`);
}
