// The console configures (docs/design.md §14, issue 22), in a real headless
// Chromium driven with puppeteer-core against the built worker in workerd:
// `GET /` redirects to the console; the subscription form creates each
// receiver kind (§5, §8, §13 policies) and replaces one, and the API's 422
// shows next to the field it names; resume, cursor-set (410 `trimmed` before
// firstOffset, §16) and remove from the subscription view; the retention
// form (§16) with its 422; sources (§15, §15.1) created against a local
// anvil node, their status, a 422 against its field, and delete; secrets
// (§9) written, listed without values, named by the webhook form, deleted.
//
// Every wait is for something observable. Screenshots go to
// target/console-screenshots/; with UPDATE_CONSOLE_SCREENSHOT=1 the new
// screens are also written to docs/ (console-subscription.png,
// console-subscription-422.png, console-source.png).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { startTributary, ROOT, TOKEN } from "./harness.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { startAnvil, CHAIN_ID } from "./anvil.mjs";
import { CONFIGURED, RESUMED, eventually, streamApi } from "./delivery_helpers.mjs";
import { pageRendered } from "./console_helpers.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = join(ROOT, "target", "console-screenshots");
const WAIT = 15_000;
const STREAM = "/configure-e2e/orders";
const TRIMMED = "/configure-e2e/trimmed";

let t;
let api;
let receiver;
let anvil;
let browser;
let page;
const problems = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/bootstrap (it installs Debian's chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  [t, anvil] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startAnvil()]);
  api = streamApi(t);
  receiver = await startReceiver();
  receiver.script("/flip", { status: 410 }, { status: 200 });
  await api.appendOk(STREAM, { type: "order.created", payload: { id: 1, total: 42 } });
  const defined = await t.request("PUT", "/v1/processors/order-total", { body: { kind: "jsonata-reducer", initialState: 0, reducer: "$state + $event.payload.total" } });
  assert.equal(defined.status, 200, JSON.stringify(defined.body));

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    defaultViewport: { width: 1280, height: 900 },
  });
  page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    // Refused requests (the 422s and 410s this file provokes) log as failed loads.
    if (message.type() === "error" && !/^Failed to load resource/.test(text)) problems.push(`console: ${text}`);
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`csp: ${text}`);
  });
  await page.goto(`${t.url}/console/#/signin`);
  await page.evaluate((token) => sessionStorage.setItem("tributary.console.token", token), TOKEN);
});

after(async () => {
  await browser?.close().catch(() => {});
  await receiver?.close();
  await anvil?.stop();
  await t?.cleanup();
});

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const waitForText = (text) => page.waitForFunction((needle) => document.querySelector("main")?.innerText.includes(needle), {}, text);
/** A fresh load of a console page (a same-URL goto would only be a fragment navigation). */
async function open(hash) {
  await page.goto("about:blank");
  await page.goto(`${t.url}/console/#${hash}`);
  await pageRendered(page);
}
const configurationOf = async (path, key) => (await api.infoOk(path)).state.subscriptions.outbound.byKey[key];

/** Sets a control of the visible form found by its `name` (text, textarea or select) and fires `change`. */
async function setField(formSelector, name, value) {
  await page.$eval(
    `${formSelector} [name="${name}"]`,
    (control, text) => {
      control.value = text;
      control.dispatchEvent(new Event("change", { bubbles: true }));
    },
    value,
  );
}

/** Fills the subscription form (`fields`: name → value, in order) and submits it. */
async function submitSubscription(fields) {
  await page.waitForSelector("form.subscription-form");
  for (const [name, value] of Object.entries(fields)) await setField("form.subscription-form", name, value);
  await page.click("form.subscription-form button[type=submit]");
}

/** The field error shown against `apiField`, once it is there. */
async function fieldError(apiField) {
  const selector = `.field-error[data-error-for="${apiField}"]`;
  await page.waitForSelector(selector);
  return page.$eval(selector, (el) => el.innerText);
}

test("§14: GET / redirects to /console/", async () => {
  const root = await fetch(`${t.url}/`, { redirect: "manual" });
  assert.equal(root.status, 308);
  assert.equal(new URL(root.headers.get("location")).pathname, "/console/");
  assert.ok(root.headers.get("content-security-policy"), "the redirect carries the console's headers");
  const followed = await fetch(`${t.url}/`);
  assert.equal(followed.status, 200);
  assert.match(await followed.text(), /<script type="module" src="js\/app.js"><\/script>/);
  const post = await fetch(`${t.url}/`, { method: "POST" });
  assert.equal(post.status, 405);
  await post.text();
});

const KINDS = [
  {
    key: "hook",
    fields: { subscriptionKey: "hook", action: "webhook-post", url: "/ok", eventTypes: "order.created, order.paid", jsonataCondition: "payload.total > 10", jsonataTransform: "{'payload': {'id': payload.id}}", onFailingEvent: "skip", "retry-maxAttempts": "3", "retry-initialBackoffMs": "10", "retry-maxBackoffMs": "100", "throttle-maxDeliveries": "50", "throttle-windowMs": "60000", concurrency: "2", timeoutMs: "5000" },
    expected: (url) => ({
      subscriptionKey: "hook",
      filter: { eventTypes: ["order.created", "order.paid"], jsonataCondition: "payload.total > 10" },
      receiver: { action: "webhook-post", url, jsonataTransform: "{'payload': {'id': payload.id}}", delivery: { start: "beginning", onFailingEvent: "skip", retry: { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 100 }, throttle: { maxDeliveries: 50, windowMs: 60000 }, timeoutMs: 5000, concurrency: 2 } },
    }),
  },
  {
    key: "audit-copy",
    fields: { subscriptionKey: "audit-copy", description: "to the audit stream", action: "copy-to-stream", receivingStreamPath: "/configure-e2e/audit", jsonataTransform: "payload", "retry-maxAttempts": "5", "retry-initialBackoffMs": "100", "retry-maxBackoffMs": "1000" },
    expected: () => ({ subscriptionKey: "audit-copy", description: "to the audit stream", receiver: { action: "copy-to-stream", receivingStreamPath: "/configure-e2e/audit", jsonataTransform: "payload", delivery: { start: "beginning", onFailingEvent: "halt", retry: { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 1000 } } } }),
  },
  {
    key: "itx",
    fields: { subscriptionKey: "itx", action: "itx-call", expression: '["services", "X", "deliver"]', start: "now", "aggregate-windowMs": "1000", "aggregate-maxBatch": "5", journalDepth: "100" },
    expected: () => ({ subscriptionKey: "itx", receiver: { action: "itx-call", expression: ["services", "X", "deliver"], delivery: { start: "now", onFailingEvent: "halt", aggregate: { windowMs: 1000, maxBatch: 5 }, journalDepth: 100 } } }),
  },
  {
    key: "total",
    fields: { subscriptionKey: "total", action: "processor-wake", processor: "order-total", eventTypes: "order.created" },
    expected: () => ({ subscriptionKey: "total", filter: { eventTypes: ["order.created"] }, receiver: { action: "processor-wake", expression: ["processors", "order-total", "wake"] } }),
  },
  {
    key: "lines",
    fields: { subscriptionKey: "lines", action: "log", onFailingEvent: "skip", jsonataTransform: "{'payload': {'type': type}}" },
    expected: () => ({ subscriptionKey: "lines", receiver: { action: "log", jsonataTransform: "{'payload': {'type': type}}", delivery: { start: "beginning", onFailingEvent: "skip" } } }),
  },
];

test("§14 §5 §8: the form creates a subscription of each receiver kind with its policies; each appears on the card", async () => {
  for (const kind of KINDS) {
    const fields = { ...kind.fields, ...(kind.fields.url ? { url: receiver.url(kind.fields.url) } : {}) };
    await open(`/streams${STREAM}/-/subscription`);
    await submitSubscription(fields);
    await page.waitForFunction((key) => location.hash.includes(`key=${encodeURIComponent(key)}`) && location.hash.includes("done=configured"), {}, kind.key);
    await waitForText(`Configured ${kind.key}`);
    const stored = await configurationOf(STREAM, kind.key);
    assert.deepEqual(stored?.configuration, kind.expected(fields.url), kind.key);
    if (kind.key === "hook") await shot("20-subscription-form");
  }
  await open(`/streams${STREAM}/-/subscriptions`);
  for (const kind of KINDS) await page.waitForSelector(`tr[data-key="${kind.key}"]`);
  const actions = await page.$$eval("tr[data-key]", (rows) => Object.fromEntries(rows.map((row) => [row.dataset.key, row.children[1].textContent])));
  assert.deepEqual(actions, { hook: "webhook-post", "audit-copy": "copy-to-stream", itx: "itx-call", total: "processor-wake", lines: "log" });
  // The webhook delivers what the form's filter and transform let through.
  await api.appendOk(STREAM, { type: "order.created", payload: { id: 2, total: 5 } });
  await api.appendOk(STREAM, { type: "order.created", payload: { id: 3, total: 50 } });
  // Concurrency 2: in any order; the one of total 5 is filtered out (seen only after both others arrived).
  const received = await eventually(() => {
    const ids = receiver.received("/ok").map((record) => record.body.event.payload.id).sort();
    assert.ok(ids.includes(1) && ids.includes(3), JSON.stringify(ids));
    return ids;
  });
  assert.deepEqual(received, [1, 3]);
});

test("§14 §5: the form replaces a subscription: prefilled, then a gate added (a new configuring event)", async () => {
  const before = await configurationOf(STREAM, "lines");
  await open(`/streams${STREAM}/-/subscription?key=lines`);
  await page.waitForSelector("form.subscription-form");
  assert.equal(await page.$eval("form.subscription-form [name=jsonataTransform]", (el) => el.value), "{'payload': {'type': type}}", "prefilled from the stored configuration");
  assert.equal(await page.$eval("form.subscription-form [name=action]", (el) => el.value), "log");
  // A log receiver takes no gate or retry: those parts are hidden.
  assert.equal(await page.$eval('fieldset[data-part="retry"]', (el) => el.hidden), true);
  await submitSubscription({ action: "webhook-post", url: receiver.url("/lines"), gate: "maxOnce", "gate-maxonce-window": "60000" });
  await page.waitForFunction(() => location.hash.includes("done=configured"));
  const after = await configurationOf(STREAM, "lines");
  assert.ok(after.configuredAtOffset > before.configuredAtOffset, "a new subscription-configured event");
  assert.deepEqual(after.configuration.receiver, { action: "webhook-post", url: receiver.url("/lines"), jsonataTransform: "{'payload': {'type': type}}", delivery: { start: "beginning", onFailingEvent: "skip", gate: { maxOnce: { windowMs: 60000 } } } });
});

test("§14 §8: the API's 422 shows next to the field it names, and nothing is appended", async () => {
  const cases = [
    [{ "retry-maxAttempts": "0", "retry-initialBackoffMs": "10", "retry-maxBackoffMs": "100" }, "receiver.delivery.retry.maxAttempts", /invalid_subscription.*must be positive/],
    [{ "retry-maxAttempts": "2", "retry-initialBackoffMs": "500", "retry-maxBackoffMs": "100" }, "receiver.delivery.retry.initialBackoffMs", /must not exceed maxBackoffMs/],
    [{ jsonataCondition: "payload.total >" }, "filter.jsonataCondition", /invalid_jsonata/],
    [{ concurrency: "2", onFailingEvent: "halt" }, "receiver.delivery.concurrency", /needs onFailingEvent "skip"/],
    [{ "throttle-maxDeliveries": "5" }, "receiver.delivery.throttle.windowMs", /is required/],
    [{ gate: "threshold", "gate-count": "x", "gate-threshold-window": "1000" }, "receiver.delivery.gate.threshold.count", /must be a positive integer/],
    [{ subscriptionKey: "subscription:7" }, "subscriptionKey", /reserved|subscription:/],
  ];
  const { head } = await api.infoOk(STREAM);
  for (const [fields, apiField, message] of cases) {
    await open(`/streams${STREAM}/-/subscription`);
    await submitSubscription({ subscriptionKey: "refused", action: "webhook-post", url: receiver.url("/never"), ...fields });
    const text = await fieldError(apiField);
    assert.match(text, message, apiField);
    const invalid = await page.$eval(`[data-api-field="${apiField}"]`, (el) => [el.getAttribute("aria-invalid"), document.activeElement === el]);
    assert.deepEqual(invalid, ["true", true], `${apiField} marked invalid and focused`);
    if (apiField.endsWith("maxAttempts")) await shot("21-subscription-422");
  }
  // Malformed JSON in the expression never reaches the API.
  await open(`/streams${STREAM}/-/subscription`);
  await submitSubscription({ action: "itx-call", expression: "[services" });
  assert.match(await fieldError("receiver.expression"), /invalid_json/);
  assert.equal((await api.infoOk(STREAM)).head, head, "no refused configuration was appended");
});

test("§14 §4: resume a halted subscription from its view", async () => {
  await api.appendOk(STREAM, { type: CONFIGURED, payload: { subscriptionKey: "flip", receiver: { action: "webhook-post", url: receiver.url("/flip"), delivery: { start: "beginning", onFailingEvent: "halt" } } } });
  await eventually(async () => assert.ok((await configurationOf(STREAM, "flip"))?.deliveryHalted, "flip halted"), { what: "flip halted" });
  await open(`/streams${STREAM}/-/subscription?key=flip`);
  await page.waitForSelector('dd[data-field="status"]');
  assert.match(await page.$eval('dd[data-field="status"]', (el) => el.textContent), /^halted/);
  await page.click("button[data-focus-key=resume]");
  await page.waitForFunction(() => location.hash.includes("done=resumed"));
  await waitForText("Resumed flip");
  const { events } = (await t.request("GET", `/v1/streams${STREAM}/-/events?after=0&limit=1000`)).body;
  assert.ok(events.some((event) => event.type === RESUMED && event.payload.subscriptionKey === "flip"), "subscription-delivery-resumed appended");
  await eventually(async () => assert.equal((await api.cardOk(STREAM)).subscriptions.find((s) => s.subscriptionKey === "flip").runtime.lag, 0), { what: "flip caught up after resume" });
});

test("§14 §16: retention from the stream view (422 on its field), then cursor-set before firstOffset is 410 trimmed, after it moves the cursor; remove", async () => {
  await api.appendOk(TRIMMED, { type: CONFIGURED, payload: { subscriptionKey: "tail", receiver: { action: "log", delivery: { start: "beginning", onFailingEvent: "skip" } } } });
  await api.batchOk(TRIMMED, Array.from({ length: 12 }, (_, i) => ({ type: "data", payload: { i } })));
  await open(`/streams${TRIMMED}/-/events`);
  await page.waitForSelector("details.retention summary");
  await page.click("details.retention summary");
  await page.type("#retention-maxAgeMs", "1000");
  await page.click("form.retention-form button[type=submit]");
  assert.match(await fieldError("maxAgeMs"), /at least/);
  await page.$eval("#retention-maxAgeMs", (el) => (el.value = ""));
  await page.type("#retention-maxEvents", "3");
  await page.click("#retention-trimPastSubscribers");
  await page.click("form.retention-form button[type=submit]");
  await waitForText("Retention configured");
  await page.waitForFunction(() => document.querySelector("dd[data-field=retention]")?.textContent === "at most 3 events, trims past subscribers");
  const info = await eventually(async () => {
    const seen = await api.infoOk(TRIMMED);
    assert.ok(seen.firstOffset > 5, `trimmed: firstOffset ${seen.firstOffset}`);
    return seen;
  }, { what: "retention trimmed", timeoutMs: 20_000 });
  assert.deepEqual(info.retention, { maxEvents: 3, trimPastSubscribers: true });

  await open(`/streams${TRIMMED}/-/subscription?key=tail`);
  await page.waitForSelector("#cursor-after");
  await page.$eval("#cursor-after", (el) => (el.value = "0"));
  await page.click("button[data-focus-key=cursor-set]");
  assert.match(await fieldError("afterOffset"), /trimmed/);
  await shot("22-cursor-trimmed");
  const lowest = info.firstOffset - 1;
  await page.$eval("#cursor-after", (el, value) => (el.value = value), String(lowest));
  await page.click("button[data-focus-key=cursor-set]");
  await page.waitForFunction(() => location.hash.includes("done=cursor"));
  const entry = await configurationOf(TRIMMED, "tail");
  assert.equal(entry.cursorSet.afterOffset, lowest);

  await page.waitForSelector("button[data-focus-key=remove]");
  await page.click("button[data-focus-key=remove]");
  await page.waitForSelector("dialog.confirm[open]");
  await page.click("dialog.confirm .btn-danger");
  await page.waitForFunction(() => location.hash.includes("removed=tail"));
  await waitForText("Removed tail");
  await waitForText("No subscriptions on this stream");
  // (The events themselves may be trimmed by now: the reduced state says what they did.)
  assert.equal(await configurationOf(TRIMMED, "tail"), undefined, "subscription-removed folded");
});

test("§14 §15: sources: a 422 against its field, create a chain and a mempool source against anvil, their status, the list, delete", async () => {
  await open("/sources");
  await waitForText("No sources yet");
  const fill = async (fields) => {
    for (const [id, value] of Object.entries(fields)) await page.$eval(`#source-${id}`, (el, text) => {
      el.value = text;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }, value);
  };
  await fill({ name: "usdc", kind: "evm", rpcUrls: anvil.url, chainId: "1", targetStream: "/configure-e2e/chain", pollMs: "250" });
  await page.click("form.source-form button[type=submit]");
  assert.match(await fieldError("chainId"), /invalid_source|chain/);
  await fill({ chainId: String(CHAIN_ID), filters: '[{"event": "Transfer(address from"}]' });
  await page.click("form.source-form button[type=submit]");
  assert.match(await fieldError("filters"), /filters\[0\]\.event|event/);
  await fill({ filters: '[{"event": "Transfer(address indexed from, address indexed to, uint256 value)"}]' });
  await page.click("form.source-form button[type=submit]");
  await page.waitForFunction(() => location.hash.startsWith("#/sources/usdc"));
  await waitForText("Saved usdc");
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('dd[data-field="nextBlock"]')?.textContent ?? ""));
  const status = await t.request("GET", "/v1/sources/usdc");
  assert.equal(status.body.config.chainId, CHAIN_ID);
  assert.equal(await page.$eval('dd[data-field="lastError"]', (el) => el.textContent), "none");
  await shot("23-source");

  await open("/sources");
  await page.waitForSelector('tr[data-name="usdc"]');
  await fill({ name: "pending", kind: "evm-mempool", rpcUrls: anvil.url, chainId: String(CHAIN_ID), targetStream: "/configure-e2e/pending", filters: "[{}]" });
  assert.equal(await page.$eval("#source-finalityDepth", (el) => el.closest("[hidden]") !== null), true, "a mempool source takes no finalityDepth");
  await page.click("form.source-form button[type=submit]");
  await page.waitForFunction(() => location.hash.startsWith("#/sources/pending"));
  await page.waitForFunction(() => document.querySelector('dd[data-field="watchingSince"] time') !== null);
  await open("/sources");
  await page.waitForSelector('tr[data-name="pending"]');
  assert.deepEqual(await page.$$eval("tr[data-name]", (rows) => rows.map((row) => [row.dataset.name, row.children[1].textContent])), [["pending", "evm-mempool"], ["usdc", "evm"]]);
  await shot("24-sources");

  await open("/sources/pending");
  await page.waitForSelector("button[data-focus-key=delete-source]");
  await page.click("button[data-focus-key=delete-source]");
  await page.waitForSelector("dialog.confirm[open]");
  await page.click("dialog.confirm .btn-danger");
  await page.waitForFunction(() => location.hash === "#/sources");
  await page.waitForSelector('tr[data-name="usdc"]');
  assert.equal(await page.$('tr[data-name="pending"]'), null);
  assert.equal((await t.request("GET", "/v1/sources/pending")).status, 404);

  if (process.env.UPDATE_CONSOLE_SCREENSHOT === "1") {
    copyFileSync(join(SHOTS, "20-subscription-form.png"), join(ROOT, "docs", "console-subscription.png"));
    copyFileSync(join(SHOTS, "21-subscription-422.png"), join(ROOT, "docs", "console-subscription-422.png"));
    copyFileSync(join(SHOTS, "23-source.png"), join(ROOT, "docs", "console-source.png"));
  }
});

test("§14 §9: secrets: a 422 against the value, written and listed without their values, named by the webhook form, delivered, deleted", async () => {
  const value = "Bearer console-s3cret-7f3a";
  const hookUrl = receiver.url("/console-secret");
  await open("/secrets");
  await waitForText("No secrets yet");
  const fill = async (fields) => {
    for (const [id, text] of Object.entries(fields)) await page.$eval(`#secret-${id}`, (el, v) => {
      el.value = v;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }, text);
  };
  await fill({ name: "CONSOLE_TOKEN", value: "" });
  await page.click("form.secret-form button[type=submit]");
  assert.match(await fieldError("value"), /invalid_secret/);
  await fill({ value });
  await page.click("form.secret-form button[type=submit]");
  await waitForText("Saved CONSOLE_TOKEN (version 1)");
  await page.waitForSelector('tr[data-name="CONSOLE_TOKEN"]');
  assert.equal(await page.$eval("#secret-value", (el) => el.value), "", "the value field is emptied");
  await fill({ name: "CONSOLE_URL", value: hookUrl });
  await page.click("form.secret-form button[type=submit]");
  await page.waitForSelector('tr[data-name="CONSOLE_URL"]');
  const html = await page.content();
  assert.ok(!html.includes("console-s3cret") && !html.includes("/console-secret"), "no stored value on the page");
  await shot("25-secrets");

  await open(`/streams${STREAM}/-/subscription`);
  await submitSubscription({ subscriptionKey: "secret-hook", action: "webhook-post", urlSecret: "CONSOLE_URL", headers: '{"authorization": {"secret": "CONSOLE_TOKEN"}}', eventTypes: "order.secret", start: "now" });
  await page.waitForFunction(() => location.hash.includes("key=secret-hook") && location.hash.includes("done=configured"));
  const stored = await configurationOf(STREAM, "secret-hook");
  assert.deepEqual(stored.configuration.receiver.url, { secret: "CONSOLE_URL" });
  assert.deepEqual(stored.configuration.receiver.headers, { authorization: { secret: "CONSOLE_TOKEN" } });
  await open(`/streams${STREAM}/-/subscription?key=secret-hook`);
  await page.waitForSelector("form.subscription-form");
  assert.equal(await page.$eval("form.subscription-form [name=urlSecret]", (el) => el.value), "CONSOLE_URL", "the form shows the secret's name");
  assert.equal(await page.$eval("form.subscription-form [name=url]", (el) => el.value), "");
  await api.appendOk(STREAM, { type: "order.secret", payload: { id: 9 } });
  await eventually(() => assert.ok(receiver.received("/console-secret").some((record) => record.headers.authorization === value)));

  await open("/secrets");
  await page.waitForSelector('tr[data-name="CONSOLE_TOKEN"]');
  await page.click("button[data-focus-key=delete-CONSOLE_TOKEN]");
  await page.waitForSelector("dialog.confirm[open]");
  await page.click("dialog.confirm .btn-danger");
  await waitForText("Deleted CONSOLE_TOKEN.");
  assert.equal(await page.$('tr[data-name="CONSOLE_TOKEN"]'), null);
  assert.deepEqual((await t.request("GET", "/v1/secrets")).body.secrets.map((secret) => secret.name), ["CONSOLE_URL"]);
});

/** Presses Tab until `predicate(document.activeElement, arg)` holds (keyboard-only navigation). */
async function tabTo(predicate, arg, { max = 60, what = "an element" } = {}) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(predicate, arg)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

test("§14: keyboard only: New subscription from the card, a log receiver chosen with the arrow keys, Enter submits", async () => {
  await open(`/streams${STREAM}/-/subscriptions`);
  await page.waitForSelector("tr[data-key]");
  await tabTo(() => document.activeElement?.textContent === "New subscription", undefined, { what: "New subscription" });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.name === "subscriptionKey", {}, undefined);
  await page.keyboard.type("by-keys");
  await tabTo(() => document.activeElement?.name === "action", undefined, { what: "the receiver select" });
  // Webhook, copy, itx, processor, log: four steps down.
  for (let i = 0; i < 4; i += 1) await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.value), "log");
  await tabTo(() => document.activeElement?.name === "eventTypes", undefined, { what: "event types" });
  await page.keyboard.type("order.created");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash.includes("key=by-keys") && location.hash.includes("done=configured"));
  const stored = await configurationOf(STREAM, "by-keys");
  assert.deepEqual(stored.configuration, { subscriptionKey: "by-keys", filter: { eventTypes: ["order.created"] }, receiver: { action: "log", delivery: { start: "beginning", onFailingEvent: "halt" } } });
});

test("§14: API data on the new screens renders as text: a hostile key and description", async () => {
  const key = '<img src=x onerror="window.__xss=1">';
  await api.appendOk(STREAM, { type: CONFIGURED, payload: { subscriptionKey: key, description: "<script>window.__xss=2</script>", receiver: { action: "log", delivery: { start: "now", onFailingEvent: "skip" } } } });
  await open(`/streams${STREAM}/-/subscription?key=${encodeURIComponent(key)}`);
  await page.waitForSelector("form.subscription-form");
  assert.equal(await page.$eval("main h1", (el) => el.textContent), key);
  assert.equal(await page.$eval("form.subscription-form [name=description]", (el) => el.value), "<script>window.__xss=2</script>");
  assert.equal(await page.$("main img[src=x]"), null);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
});

test("§14: no console error or CSP violation along the way", () => {
  assert.deepEqual(problems, []);
});
