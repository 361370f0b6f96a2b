// The OpenAPI document as a test oracle (docs/design.md §2, issue 22): the
// committed openapi.json, ajv (JSON Schema 2020-12, what OpenAPI 3.1 uses)
// over its schemas, and a checker that a real answer's status is documented
// for its operation and its body matches the documented schema.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { ROOT, TOKEN } from "./harness.mjs";

export const DOCUMENT = JSON.parse(readFileSync(join(ROOT, "openapi.json"), "utf8"));
export const METHODS = ["get", "post", "put", "delete", "patch"];

const ID = "openapi.json";
// strict off: OpenAPI keywords (example, discriminator, x-statuses) sit in
// the schemas; formats are documentation here, not checked.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
ajv.addSchema(DOCUMENT, ID);

const escape = (segment) => segment.replaceAll("~", "~0").replaceAll("/", "~1");
const compiled = new Map();

/** A validator for `#/<pointer>` of the document. */
function validatorAt(pointer) {
  if (!compiled.has(pointer)) compiled.set(pointer, ajv.compile({ $ref: `${ID}#${pointer}` }));
  return compiled.get(pointer);
}

/** Validates `value` against `components.schemas[name]`. */
export function assertSchema(name, value) {
  const validate = validatorAt(`/components/schemas/${name}`);
  assert.ok(validate(value), `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 800)}`);
}

/** The operation object of `method template` (asserted documented). */
export function operation(method, template) {
  const op = DOCUMENT.paths[template]?.[method.toLowerCase()];
  assert.ok(op, `${method} ${template} is documented`);
  return op;
}

/** The JSON pointer of a documented response, its `$ref` followed. */
function responsePointer(method, template, status) {
  const responses = operation(method, template).responses;
  assert.ok(String(status) in responses, `${method} ${template}: status ${status} is not documented`);
  const response = responses[String(status)];
  if (response.$ref) return { pointer: response.$ref.slice(1), response: resolveRef(response.$ref) };
  return { pointer: `/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}`, response };
}

function resolveRef(ref) {
  return ref
    .slice(2)
    .split("/")
    .reduce((node, part) => node[part.replaceAll("~1", "/").replaceAll("~0", "~")], DOCUMENT);
}

/**
 * Asserts that `res` ({status, body, headers} from the harness) is what the
 * document says `method template` answers: a documented status, the
 * documented content type, a JSON body valid against its schema.
 */
export function assertDocumented(method, template, res) {
  const { pointer, response } = responsePointer(method, template, res.status);
  const contentType = res.headers.get("content-type") ?? "";
  const types = Object.keys(response.content ?? {});
  if (types.length === 0) {
    assert.ok(res.body === null || res.body === "", `${method} ${template} ${res.status} has no body: ${res.body}`);
    return;
  }
  // `*/*`: the protocol face (§17) answers in the stream's own content type.
  const type = types.find((candidate) => contentType.startsWith(candidate)) ?? types.find((candidate) => candidate === "*/*");
  assert.ok(type, `${method} ${template} ${res.status}: content-type ${contentType} is not one of ${types}`);
  if (type !== "application/json") return;
  const validate = validatorAt(`${pointer}/content/${escape(type)}/schema`);
  assert.ok(
    validate(res.body),
    `${method} ${template} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 800)}`,
  );
}

/** Every path parameter of `template` (path-level and operation-level), $refs followed. */
function pathParameters(template, method) {
  const item = DOCUMENT.paths[template];
  return [...(item.parameters ?? []), ...(item[method]?.parameters ?? [])]
    .map((parameter) => (parameter.$ref ? resolveRef(parameter.$ref) : parameter))
    .filter((parameter) => parameter.in === "path");
}

/** `template` with `values[name]` (else the parameter's `example`) in each `{name}`. */
export function urlOf(template, method = "get", values = {}) {
  let url = template;
  for (const parameter of pathParameters(template, method)) {
    const value = values[parameter.name] ?? parameter.example;
    assert.notEqual(value, undefined, `${template}: {${parameter.name}} needs an example`);
    url = url.replace(`{${parameter.name}}`, String(value));
  }
  return url;
}

/** `(method, template)` of every documented operation. */
export function documentedOperations() {
  const operations = [];
  for (const [template, item] of Object.entries(DOCUMENT.paths)) {
    for (const method of METHODS) if (item[method]) operations.push({ method: method.toUpperCase(), template });
  }
  return operations;
}

/**
 * The status and headers of a request whose body may never end (an SSE
 * tail): the body is cancelled once the head arrived.
 */
export async function headOnly(baseUrl, method, url, headers = {}) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
  });
  const contentType = response.headers.get("content-type") ?? "";
  let body = null;
  if (contentType.startsWith("application/json")) body = await response.json();
  else await response.body?.cancel();
  return { status: response.status, body, headers: response.headers };
}
