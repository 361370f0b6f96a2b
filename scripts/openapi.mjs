// The OpenAPI document (docs/design.md §2, issue 22): openapi.yaml is written by
// hand; everything else is generated from it and committed:
// - openapi.json (the worker embeds it for `GET /v1/openapi.json`, the native
//   route test reads it);
// - the TypeScript client's types (clients/typescript/src/generated/schema.ts,
//   by openapi-typescript) and its operation table (operations.ts: each
//   operationId's method and path template), so the client cannot drift.
//   node scripts/openapi.mjs          regenerate them
//   node scripts/openapi.mjs --check  fail if any is not current
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import openapiTS, { astToString } from "openapi-typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const yamlPath = join(root, "openapi.yaml");
const generatedDir = join(root, "clients", "typescript", "src", "generated");
const document = parse(readFileSync(yamlPath, "utf8"));

const BANNER = "// Generated from openapi.yaml by `node scripts/openapi.mjs`: do not edit.\n";
const METHODS = ["get", "put", "post", "delete", "patch"];

/** operationId → {method, path}, in document order. */
function operationTable() {
  const lines = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const scope = operation["x-scope"] ?? "none";
      lines.push(`  ${operation.operationId}: { method: "${method.toUpperCase()}", path: "${path}", scope: "${scope}" },`);
    }
  }
  return `${BANNER}/** Every operation of the document: its method, path template and token scope (§2). */\nexport const OPERATIONS = {\n${lines.join("\n")}\n} as const;\n\nexport type OperationId = keyof typeof OPERATIONS;\n`;
}

const outputs = new Map([
  [join(root, "openapi.json"), `${JSON.stringify(document, null, 2)}\n`],
  [join(generatedDir, "schema.ts"), `${BANNER}${astToString(await openapiTS(document, { exportType: true, emptyObjectsUnknown: true }))}`],
  [join(generatedDir, "operations.ts"), operationTable()],
]);

if (process.argv.includes("--check")) {
  let stale = 0;
  for (const [path, text] of outputs) {
    let committed = "";
    try {
      committed = readFileSync(path, "utf8");
    } catch {}
    if (committed !== text) {
      console.error(`${relative(root, path)} is not current with openapi.yaml: run \`node scripts/openapi.mjs\` and commit it`);
      stale += 1;
    }
  }
  if (stale) process.exit(1);
  console.log("openapi.json and the TypeScript client's generated types are current with openapi.yaml");
} else {
  mkdirSync(generatedDir, { recursive: true });
  for (const [path, text] of outputs) {
    writeFileSync(path, text);
    console.log(`wrote ${relative(root, path)}`);
  }
}
