// The subscription form (docs/design.md §5, §8, §13): create or replace one
// subscription of any receiver kind by appending `subscription-configured`.
// Only the fields the chosen kind takes are shown (src/subscription/
// receiver.rs, delivery.rs); the console checks only that JSON parses and
// leaves every rule to the API, whose 422 is shown next to the field it names.
import { h, replace, errorBox, notice, field } from "./dom.js";
import { api, streamRoute, CONTROL } from "./api.js";
import { clearFieldErrors, showFieldError, filledGroup } from "./field_errors.js";

export const CONFIGURED = `${CONTROL}subscription-configured`;

export const ACTIONS = [
  { id: "webhook-post", label: "Webhook (POST to a URL)" },
  { id: "copy-to-stream", label: "Copy to another stream" },
  { id: "itx-call", label: "ITX call (a service binding)" },
  { id: "processor-wake", label: "Hosted processor (wake)" },
  { id: "log", label: "Log (one JSON line per event)" },
];

// Which receiver kinds take which part of the form (PolicySet::allowed).
const CALLS = ["itx-call", "webhook-post"];
const DELIVERED = ["copy-to-stream", "itx-call", "webhook-post", "log"];
const PARTS = {
  receivingStreamPath: ["copy-to-stream"],
  url: ["webhook-post"],
  headers: ["webhook-post"],
  expression: ["itx-call"],
  processor: ["processor-wake"],
  transform: DELIVERED,
  delivery: DELIVERED,
  retry: ["copy-to-stream", ...CALLS],
  throttle: CALLS,
  aggregate: CALLS,
  gate: CALLS,
  concurrency: CALLS,
  journalDepth: CALLS,
  timeoutMs: ["webhook-post"],
};

let formCount = 0;

function text(name, apiField, attrs = {}) {
  formCount += 1;
  return h("input", { type: "text", id: `sub-${name}-${formCount}`, name, spellcheck: "false", autocomplete: "off", dataset: { apiField }, ...attrs });
}
function area(name, apiField, rows = 2) {
  formCount += 1;
  return h("textarea", { id: `sub-${name}-${formCount}`, name, rows: String(rows), spellcheck: "false", class: "mono", dataset: { apiField } });
}
function select(name, apiField, options) {
  formCount += 1;
  return h("select", { id: `sub-${name}-${formCount}`, name, dataset: { apiField } }, options.map(([value, label]) => h("option", { value }, label)));
}
const numeric = (name, apiField) => text(name, apiField, { inputmode: "numeric", class: "narrow" });

/** A policy group: a fieldset whose inputs are `receiver.delivery.{group}.{name}`; left blank, it is absent. */
function policyGroup(group, legend, names, hint) {
  const inputs = Object.fromEntries(names.map((name) => [name, numeric(`${group}-${name}`, `receiver.delivery.${group}.${name}`)]));
  const fieldset = h(
    "fieldset",
    { class: "policy", dataset: { apiField: `receiver.delivery.${group}`, part: group } },
    h("legend", null, legend),
    h("div", { class: "grid-3" }, names.map((name) => field(name, inputs[name]))),
    h("p", { class: "hint" }, hint),
  );
  return { fieldset, inputs };
}

/** The controls of the form, each named by the API field its errors carry. */
function controls() {
  const c = {
    key: text("subscriptionKey", "subscriptionKey", { placeholder: "generated from the offset when blank" }),
    description: text("description", "description"),
    action: select("action", "receiver.action", ACTIONS.map((a) => [a.id, a.label])),
    eventTypes: text("eventTypes", "filter.eventTypes", { placeholder: "order.created, order.paid" }),
    condition: area("jsonataCondition", "filter.jsonataCondition"),
    receivingStreamPath: text("receivingStreamPath", "receiver.receivingStreamPath", { placeholder: "/app/audit" }),
    url: text("url", "receiver.url", { placeholder: "https://hooks.example.com/orders" }),
    urlSecret: text("urlSecret", "receiver.url", { placeholder: "ALERTS_WEBHOOK_URL" }),
    headers: area("headers", "receiver.headers", 3),
    expression: text("expression", "receiver.expression", { placeholder: '["services", "BINDING", "method"]' }),
    processor: text("processor", "receiver.expression", { placeholder: "order-count" }),
    transform: area("jsonataTransform", "receiver.jsonataTransform"),
    start: select("start", "receiver.delivery.start", [["beginning", "From the beginning"], ["now", "From now (after the head)"]]),
    onFailingEvent: select("onFailingEvent", "receiver.delivery.onFailingEvent", [["halt", "Halt (keep order)"], ["skip", "Skip (dead-letter it)"]]),
    gateKind: select("gate", "receiver.delivery.gate", [["", "No gate"], ["threshold", "Threshold: count hits in a window"], ["maxOnce", "At most once per window"]]),
    gateCount: numeric("gate-count", "receiver.delivery.gate.threshold.count"),
    gateThresholdWindow: numeric("gate-threshold-window", "receiver.delivery.gate.threshold.windowMs"),
    gateMaxOnceWindow: numeric("gate-maxonce-window", "receiver.delivery.gate.maxOnce.windowMs"),
    concurrency: numeric("concurrency", "receiver.delivery.concurrency"),
    journalDepth: numeric("journalDepth", "receiver.delivery.journalDepth"),
    timeoutMs: numeric("timeoutMs", "receiver.delivery.timeoutMs"),
  };
  c.retry = policyGroup("retry", "Retry", ["maxAttempts", "initialBackoffMs", "maxBackoffMs"], "Blank: the default (15 attempts, 1 s doubling to 30 min).");
  c.throttle = policyGroup("throttle", "Throttle", ["maxDeliveries", "windowMs"], "Blank: no throttle. Deliveries beyond the budget are dead-lettered.");
  c.aggregate = policyGroup("aggregate", "Aggregate into digests", ["windowMs", "maxBatch"], "Blank: one delivery per event.");
  return c;
}

/** Puts a stored configuration (the reduced state's) back into the controls. */
function fill(c, key, configuration) {
  c.key.value = key ?? "";
  if (!configuration) return;
  const receiver = configuration.receiver ?? {};
  const delivery = receiver.delivery ?? {};
  c.description.value = configuration.description ?? "";
  c.eventTypes.value = (configuration.filter?.eventTypes ?? []).join(", ");
  c.condition.value = configuration.filter?.jsonataCondition ?? "";
  c.action.value = receiver.action ?? "webhook-post";
  c.receivingStreamPath.value = receiver.receivingStreamPath ?? "";
  // A URL from a secret (§9) shows the secret's name, never a value.
  c.url.value = typeof receiver.url === "string" ? receiver.url : "";
  c.urlSecret.value = receiver.url?.secret ?? "";
  c.headers.value = receiver.headers ? JSON.stringify(receiver.headers, null, 2) : "";
  if (receiver.action === "processor-wake") c.processor.value = receiver.expression?.[1] ?? "";
  else if (receiver.expression) c.expression.value = JSON.stringify(receiver.expression);
  c.transform.value = receiver.jsonataTransform ?? "";
  c.start.value = delivery.start ?? "beginning";
  c.onFailingEvent.value = delivery.onFailingEvent ?? "halt";
  for (const group of ["retry", "throttle", "aggregate"]) {
    for (const [name, input] of Object.entries(c[group].inputs)) input.value = delivery[group]?.[name] ?? "";
  }
  const gate = delivery.gate ?? {};
  c.gateKind.value = gate.threshold ? "threshold" : gate.maxOnce ? "maxOnce" : "";
  c.gateCount.value = gate.threshold?.count ?? "";
  c.gateThresholdWindow.value = gate.threshold?.windowMs ?? "";
  c.gateMaxOnceWindow.value = gate.maxOnce?.windowMs ?? "";
  for (const name of ["concurrency", "journalDepth", "timeoutMs"]) c[name].value = delivery[name] ?? "";
}

const setIfFilled = (object, name, value) => {
  if (value !== undefined && value !== "") object[name] = value;
};

/** The gate the gate controls describe, or undefined. */
function gateOf(c) {
  const group = (fields) => filledGroup(fields) ?? {};
  if (c.gateKind.value === "threshold") return { threshold: group({ count: c.gateCount, windowMs: c.gateThresholdWindow }) };
  if (c.gateKind.value === "maxOnce") return { maxOnce: group({ windowMs: c.gateMaxOnceWindow }) };
  return undefined;
}

/** `receiver.delivery` from the parts the kind takes. */
function deliveryOf(c, takes) {
  const delivery = { start: c.start.value, onFailingEvent: c.onFailingEvent.value };
  for (const group of ["retry", "throttle", "aggregate"]) {
    if (takes(group)) setIfFilled(delivery, group, filledGroup(c[group].inputs));
  }
  if (takes("gate")) setIfFilled(delivery, "gate", gateOf(c));
  for (const name of ["concurrency", "journalDepth", "timeoutMs"]) {
    if (takes(name)) setIfFilled(delivery, name, filledGroup({ [name]: c[name] })?.[name]);
  }
  return delivery;
}

/** The `subscription-configured` payload, or `{error, control}` when a JSON field does not parse. */
function payloadOf(c) {
  const action = c.action.value;
  const takes = (part) => PARTS[part].includes(action);
  const payload = {};
  setIfFilled(payload, "subscriptionKey", c.key.value.trim());
  setIfFilled(payload, "description", c.description.value);
  const filter = {};
  const types = c.eventTypes.value.split(/[\s,]+/).filter(Boolean);
  if (types.length) filter.eventTypes = types;
  setIfFilled(filter, "jsonataCondition", c.condition.value.trim());
  if (Object.keys(filter).length) payload.filter = filter;
  const receiver = { action };
  if (takes("receivingStreamPath")) receiver.receivingStreamPath = c.receivingStreamPath.value.trim();
  if (takes("url")) receiver.url = c.urlSecret.value.trim() ? { secret: c.urlSecret.value.trim() } : c.url.value.trim();
  if (takes("headers") && c.headers.value.trim()) {
    try {
      receiver.headers = JSON.parse(c.headers.value);
    } catch (error) {
      return { error: { code: "invalid_json", message: `the headers are not valid JSON: ${error.message}`, details: { field: "receiver.headers" } } };
    }
  }
  if (takes("processor")) receiver.expression = ["processors", c.processor.value.trim(), "wake"];
  if (takes("expression")) {
    try {
      receiver.expression = JSON.parse(c.expression.value);
    } catch (error) {
      return { error: { code: "invalid_json", message: `the expression is not valid JSON: ${error.message}`, details: { field: "receiver.expression" } } };
    }
  }
  if (takes("transform")) setIfFilled(receiver, "jsonataTransform", c.transform.value.trim());
  if (takes("delivery")) receiver.delivery = deliveryOf(c, takes);
  payload.receiver = receiver;
  return { payload };
}

/** Shows only what the chosen kind (and gate) takes. */
function showParts(c, parts) {
  const action = c.action.value;
  for (const [part, nodes] of Object.entries(parts)) {
    for (const node of nodes) node.hidden = !PARTS[part].includes(action);
  }
  const skip = c.onFailingEvent.querySelector("option[value=skip]");
  skip.disabled = action === "copy-to-stream";
  if (skip.disabled && c.onFailingEvent.value === "skip") c.onFailingEvent.value = "halt";
  c.gateCount.closest(".field").hidden = c.gateKind.value !== "threshold";
  c.gateThresholdWindow.closest(".field").hidden = c.gateKind.value !== "threshold";
  c.gateMaxOnceWindow.closest(".field").hidden = c.gateKind.value !== "maxOnce";
}

/**
 * The form. `key` and `configuration` prefill it (a replace); `onConfigured(key, event)`
 * runs after the API committed the event.
 */
export function subscriptionForm(path, { key, configuration, onConfigured } = {}) {
  const c = controls();
  const result = h("div", { class: "form-result", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", dataset: { focusKey: "configure" } }, configuration ? "Replace subscription" : "Create subscription");
  const wrap = (control, label, hint) => field(label, control, hint);
  const parts = {
    receivingStreamPath: [wrap(c.receivingStreamPath, "Receiving stream path")],
    url: [h("div", { class: "grid-2" }, wrap(c.url, "Webhook URL", "https only, unless the deployment allows insecure webhooks"), wrap(c.urlSecret, "…or the URL from a secret (optional)", "A name under Secrets; its value is never shown"))],
    headers: [wrap(c.headers, "Headers (JSON object, optional)", 'e.g. {"authorization": {"secret": "API_TOKEN"}}; authorization only from a secret')],
    expression: [wrap(c.expression, "ITX expression (JSON array)", "A service binding on the deployment's allowlist")],
    processor: [wrap(c.processor, "Processor name", "A processor defined under Processors")],
    transform: [wrap(c.transform, "JSONata transform (optional)", "Shapes each event before it is sent")],
    retry: [c.retry.fieldset],
    throttle: [c.throttle.fieldset],
    aggregate: [c.aggregate.fieldset],
    gate: [h("fieldset", { class: "policy", dataset: { part: "gate" } }, h("legend", null, "Gate"), h("div", { class: "grid-3" }, wrap(c.gateKind, "Kind"), wrap(c.gateCount, "count"), wrap(c.gateThresholdWindow, "windowMs"), wrap(c.gateMaxOnceWindow, "windowMs")))],
    concurrency: [wrap(c.concurrency, "Concurrency (1–32, skip only)")],
    journalDepth: [wrap(c.journalDepth, "Journal depth")],
    timeoutMs: [wrap(c.timeoutMs, "Timeout (ms)")],
  };
  parts.delivery = [h("div", { class: "grid-2" }, wrap(c.start, "Start"), wrap(c.onFailingEvent, "On a failing event"))];
  fill(c, key, configuration);
  const form = h(
    "form",
    { class: "card subscription-form", novalidate: true, "aria-labelledby": "subscription-form-title" },
    h("h2", { id: "subscription-form-title" }, configuration ? "Replace this subscription" : "Configure a subscription"),
    h("div", { class: "grid-2" }, wrap(c.key, "Subscription key (optional)", "Same key: replace (a new delivery run)"), wrap(c.description, "Description (optional)")),
    wrap(c.action, "Receiver"),
    parts.receivingStreamPath, parts.url, parts.headers, parts.expression, parts.processor,
    h("fieldset", { class: "policy" }, h("legend", null, "Filter"), wrap(c.eventTypes, "Event types (optional)", "Exact types, separated by commas"), wrap(c.condition, "JSONata condition (optional)", "Must evaluate to exactly true")),
    parts.transform,
    parts.delivery,
    h("div", { class: "grid-3" }, parts.concurrency, parts.journalDepth, parts.timeoutMs),
    parts.retry, parts.throttle, parts.aggregate, parts.gate,
    h("div", { class: "actions" }, submit),
    result,
  );
  const update = () => showParts(c, parts);
  c.action.addEventListener("change", update);
  c.gateKind.addEventListener("change", update);
  update();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    replace(result);
    const built = payloadOf(c);
    if (built.error) {
      if (!showFieldError(form, built.error)) replace(result, errorBox(built.error, { title: "Not sent" }));
      return;
    }
    submit.disabled = true;
    try {
      const answer = await api("POST", streamRoute(path, "events"), { body: { type: CONFIGURED, payload: built.payload } });
      const committed = answer.event;
      const configuredKey = built.payload.subscriptionKey ?? `subscription:${committed.offset}`;
      replace(result, notice(`Configured ${configuredKey} (event at offset ${committed.offset}).`));
      await onConfigured?.(configuredKey, committed);
    } catch (error) {
      const named = showFieldError(form, error);
      replace(result, named ? notice(`The API refused it (HTTP ${error.status} ${error.code}): see ${error.details.field}.`, "warn") : errorBox(error, { title: "The API refused the configuration" }));
      if (!named) result.firstElementChild?.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
