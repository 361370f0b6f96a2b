// End-to-end test of the operator console (docs/design.md §14) in a real headless
// Chromium (Debian's `chromium`, installed by scripts/bootstrap), driven with
// puppeteer-core, against the built worker in workerd serving console/ as
// Workers static assets.
//
// One Tributary, one webhook receiver and one browser page for the file; the
// tests run in order and share the page like one operator session: sign in
// (keyboard only), list streams, open one, watch a live-appended event
// arrive without a reload, append through the form (API validation errors
// shown as returned), check that a hostile payload renders as text, resume
// a halted subscription, replay and discard dead letters, read processor
// state, sign out. Every wait is for something observable, bounded.
//
// A screenshot of every page goes to target/console-screenshots/. With
// UPDATE_CONSOLE_SCREENSHOT=1 the subscriptions page is also written to
// docs/console.png (so CI never dirties the tree).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { startTributary, streamUrl, ROOT, TOKEN, READ_TOKEN } from "./harness.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { CONFIGURED, eventually, streamApi } from "./delivery_helpers.mjs";
import { pageRendered } from "./console_helpers.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = join(ROOT, "target", "console-screenshots");
const WAIT = 15_000;
const EXPECTED_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

const STREAM = "/console-e2e/orders";
const OTHER = "/console-e2e/audit";
const RETAINED = "/console-e2e/retained";
const RETENTION = "events.iterate.com/stream/retention-configured";
const XSS_TYPE = "<img/src=x/onerror=window.__xss=3>";
const XSS_PAYLOAD = {
  note: "<script>window.__xss=1</script>",
  img: '<img src=x onerror="window.__xss=2;alert(2)">',
};
const RETRY = { maxAttempts: 2, initialBackoffMs: 50, maxBackoffMs: 50 };

let t;
let api;
let receiver;
let browser;
let page;
let xssOffset;
const dialogs = [];
const consoleProblems = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/bootstrap (it installs Debian's chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  t = await startTributary({ allowInsecureWebhooks: true });
  api = streamApi(t);
  receiver = await startReceiver();
  receiver.script("/gone", { status: 410 });
  // Two failures dead-letter the first event (maxAttempts 2, skip); then it answers 200.
  receiver.script("/flaky", { status: 500 }, { status: 500 }, { status: 200 });

  await api.appendOk(STREAM, { type: "order.created", payload: { id: 1, total: 42 } });
  await api.appendOk(OTHER, { type: "audit.opened", payload: {} });
  await api.appendOk(STREAM, { type: CONFIGURED, payload: webhook("hook-halt", "/gone", "halt") });
  await api.appendOk(STREAM, { type: CONFIGURED, payload: webhook("hook-skip", "/flaky", "skip", ["order.created"]) });
  const defined = await t.request("PUT", "/v1/processors/order-count", {
    body: { kind: "jsonata-reducer", initialState: { n: 0 }, reducer: "{'n': $state.n + 1}", description: "counts order events" },
  });
  assert.equal(defined.status, 200, JSON.stringify(defined.body));
  await api.appendOk(STREAM, {
    type: CONFIGURED,
    payload: { subscriptionKey: "count", filter: { eventTypes: ["order.created"] }, receiver: { action: "processor-wake", expression: ["processors", "order-count", "wake"] } },
  });
  xssOffset = (await api.appendOk(STREAM, { type: XSS_TYPE, payload: XSS_PAYLOAD })).offset;
  await eventually(
    async () => {
      const card = await api.cardOk(STREAM);
      const entry = (key) => card.subscriptions.find((s) => s.subscriptionKey === key);
      assert.ok(entry("hook-halt")?.deliveryHalted, "hook-halt halted");
      assert.equal(entry("hook-skip")?.runtime?.deadLetters, 1, "one dead letter on hook-skip");
    },
    { what: "a halted subscription and a dead letter" },
  );

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    defaultViewport: { width: 1280, height: 900 },
  });
  page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  page.on("dialog", async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => consoleProblems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    // API answers the console shows on purpose (401 at a wrong sign-in, 404 of a missing stream) log as failed loads.
    if (message.type() === "error" && !/^Failed to load resource/.test(text)) consoleProblems.push(`console: ${text}`);
    if (/Content Security Policy|Refused to/i.test(text)) consoleProblems.push(`csp: ${text}`);
  });
});

after(async () => {
  await browser?.close().catch(() => {});
  await receiver?.close();
  await t?.cleanup();
});

function webhook(subscriptionKey, hookPath, onFailingEvent, eventTypes) {
  return {
    subscriptionKey,
    ...(eventTypes ? { filter: { eventTypes } } : {}),
    receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { start: "beginning", onFailingEvent, retry: RETRY } },
  };
}

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** Presses Tab until `predicate(document.activeElement, arg)` holds (keyboard-only navigation). */
async function tabTo(predicate, arg, { max = 80, what = "an element" } = {}) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(predicate, arg)) return;
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML?.slice(0, 200));
  throw new Error(`Tab never reached ${what} (focus is on ${at})`);
}
/** A `tabTo` predicate: the focused element's text is `text`. */
const focusedIs = (text) => document.activeElement?.textContent?.trim() === text;

/** Waits until main's visible text contains `text`. */
const waitForText = (text, timeout = WAIT) =>
  page.waitForFunction((needle) => document.querySelector("main")?.innerText.includes(needle), { timeout }, text);

test("§14: /console/ is served publicly with a strict CSP, nosniff and no-referrer; /console redirects; other methods are 405", async () => {
  const index = await fetch(`${t.url}/console/`);
  assert.equal(index.status, 200);
  assert.match(index.headers.get("content-type"), /text\/html/);
  assert.equal(index.headers.get("content-security-policy"), EXPECTED_CSP);
  assert.equal(index.headers.get("x-content-type-options"), "nosniff");
  assert.equal(index.headers.get("referrer-policy"), "no-referrer");
  const html = await index.text();
  assert.match(html, /<script type="module" src="js\/app.js"><\/script>/);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");

  const script = await fetch(`${t.url}/console/js/app.js`);
  assert.equal(script.status, 200);
  assert.match(script.headers.get("content-type"), /javascript/);
  assert.equal(script.headers.get("content-security-policy"), EXPECTED_CSP);
  await script.text();

  const bare = await fetch(`${t.url}/console`, { redirect: "manual" });
  assert.equal(bare.status, 308);
  assert.equal(new URL(bare.headers.get("location")).pathname, "/console/");
  const missing = await fetch(`${t.url}/console/nope.js`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, "not_found");
  const post = await fetch(`${t.url}/console/`, { method: "POST" });
  assert.equal(post.status, 405);
  await post.text();
  // The API stays behind the token.
  assert.equal((await fetch(`${t.url}/v1/streams`)).status, 401);
});

test("§14: sign in and open a stream with the keyboard only; a live-appended event appears without a reload", async () => {
  await page.goto(`${t.url}/console/`);
  await page.waitForFunction(() => location.hash.startsWith("#/signin") && document.activeElement?.id === "token");
  await shot("01-sign-in");

  // A wrong token: the API's 401 is shown, nothing is stored.
  await page.keyboard.type("not-a-token");
  await page.keyboard.press("Enter");
  await waitForText("unauthorized");
  assert.equal(await page.evaluate(() => sessionStorage.length), 0);

  assert.equal(await page.evaluate(() => document.activeElement?.id), "token", "focus is back in the token field");
  await page.keyboard.down("Control");
  await page.keyboard.press("KeyA");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(TOKEN);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash === "#/streams");
  await waitForText(STREAM);
  await waitForText(OTHER);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("tributary.console.token")), TOKEN);
  // Heads are filled in from each stream's info.
  const { head } = await api.infoOk(STREAM);
  await page.waitForFunction(
    (path, expected) => [...document.querySelectorAll("tbody tr")].find((row) => row.innerText.includes(path))?.children[1]?.textContent === expected,
    {},
    STREAM,
    String(head),
  );
  await shot("02-streams");

  // The prefix filter, by keyboard.
  await tabTo(() => document.activeElement?.id === "prefix", undefined, { what: "the prefix field" });
  await page.keyboard.type("/console-e2e/aud");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.hash.includes("prefix="));
  await page.waitForFunction((path) => !document.querySelector("main").innerText.includes(path), {}, STREAM);
  await waitForText(OTHER);
  await page.goto(`${t.url}/console/#/streams`);
  await pageRendered(page, WAIT);
  await waitForText(STREAM);

  await tabTo((path) => document.activeElement?.textContent === path, STREAM, { what: `the ${STREAM} link` });
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, "none", "a keyboard-focused link shows a focus outline");
  await page.keyboard.press("Enter");
  await page.waitForFunction((path) => location.hash === `#/streams${path}/-/events`, {}, STREAM);
  await waitForText("order.created");
  await shot("03-events");

  await tabTo(focusedIs, "Live tail", { what: "the Live tail tab" });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("live-state")?.textContent === "live");
  await page.evaluate(() => {
    window.__sameDocument = true;
  });

  const appended = await api.appendOk(STREAM, { type: "order.shipped", payload: { id: 1, carrier: "tributary-post" } });
  await page.waitForFunction(
    (offset) => document.querySelector(`.events li[data-offset="${offset}"]`)?.innerText.includes("order.shipped"),
    {},
    appended.offset,
  );
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "no reload happened");
  // The live connection acknowledges what it showed: the debug card lists it delivered through the offset.
  await eventually(async () => {
    const card = await api.cardOk(STREAM);
    assert.ok(card.connections.some((c) => c.deliveredThroughOffset >= appended.offset), JSON.stringify(card.connections));
  });
  // The event's JSON is readable: expand it with the keyboard.
  await page.focus(`.events li[data-offset="${appended.offset}"] summary`);
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (offset) => document.querySelector(`.events li[data-offset="${offset}"] pre.json`)?.innerText.includes('"carrier": "tributary-post"'),
    {},
    appended.offset,
  );
  await shot("04-live");
});

test("§14: the append form shows the API's validation errors as returned, and appends", async () => {
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/events`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("form.append");
  await page.type("form.append input[name=type]", "has space");
  await page.click("form.append button[type=submit]");
  await waitForText("invalid_event");
  await waitForText("'type' must not contain whitespace or control characters");

  // Malformed JSON never reaches the API.
  await page.evaluate(() => {
    document.querySelector("form.append input[name=type]").value = "order.noted";
    document.querySelector("form.append textarea[name=payload]").value = "{not json";
  });
  await page.click("form.append button[type=submit]");
  await waitForText("payload is not valid JSON");
  assert.equal(await page.$eval("form.append textarea[name=payload]", (el) => el.getAttribute("aria-invalid")), "true");

  await page.evaluate(() => {
    document.querySelector("form.append textarea[name=payload]").value = '{"note": "by hand"}';
  });
  await page.click("form.append button[type=submit]");
  await waitForText("Appended at offset");
  const info = await api.infoOk(STREAM);
  const last = (await api.range(STREAM, `after=${info.head - 1}`)).body.events[0];
  assert.deepEqual([last.type, last.payload], ["order.noted", { note: "by hand" }]);
  await page.waitForFunction((offset) => document.querySelector(`.events li[data-offset="${offset}"]`), {}, last.offset);
  await shot("05-append");
});

test("§14: typing into the append form while the page still loads keeps focus and every character", async () => {
  // Hold the page's read of events: the page is rendered up to its form, and still busy.
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  const hold = async (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (/\/-\/events\?/.test(request.url()) && request.method() === "GET") await held;
    await request.continue();
  };
  await page.setRequestInterception(true);
  page.on("request", hold);
  try {
    await page.goto(`${t.url}/console/#/streams${STREAM}/-/events?after=1`);
    await page.waitForSelector("form.append input[name=type]");
    assert.equal(await page.$eval("main", (main) => main.getAttribute("aria-busy")), "true", "the page is still loading");
    await page.focus("form.append input[name=type]");
    await page.keyboard.type("order.");
    release();
    await pageRendered(page, WAIT);
    await page.keyboard.type("typed");
    assert.deepEqual(
      await page.evaluate(() => [document.activeElement?.getAttribute("name"), document.querySelector("form.append input[name=type]").value]),
      ["type", "order.typed"],
    );
  } finally {
    release();
    page.off("request", hold);
    await page.setRequestInterception(false);
  }
});

test("§14: a hostile event type and payload render as inert text", async () => {
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/events?after=0`);
  await pageRendered(page, WAIT);
  await waitForText(XSS_TYPE);
  const summary = `.events li[data-offset="${xssOffset}"] summary`;
  assert.equal(await page.$eval(`${summary} .type`, (el) => el.textContent), XSS_TYPE);
  await page.click(summary);
  await page.waitForFunction(() => document.querySelector("main").innerText.includes("<script>window.__xss=1</script>"));
  const state = await page.evaluate(() => ({
    xss: typeof window.__xss,
    injected: document.querySelectorAll("main img, main script, main iframe, main [onerror]").length,
  }));
  assert.deepEqual(state, { xss: "undefined", injected: 0 });
  const text = await page.evaluate(() => document.querySelector("main").innerText);
  assert.ok(text.includes('onerror=\\"window.__xss=2;alert(2)\\"'), "the img payload is visible as JSON text");
  assert.deepEqual(dialogs, [], "no dialog opened");
  await shot("06-hostile-payload");
});

test("§14: the debug card shows a halted subscription; Resume (keyboard) resumes it; latency and lag are plotted", async () => {
  receiver.script("/gone", { status: 200 });
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/subscriptions`);
  await pageRendered(page, WAIT);
  await page.waitForSelector('tr[data-key="hook-halt"] .badge-danger');
  const row = await page.$eval('tr[data-key="hook-halt"]', (tr) => tr.innerText);
  assert.match(row, /webhook-post/);
  assert.match(row, /HTTP 410/);
  assert.match(row, /halted/);
  // Charts of every subscription, filled by polling.
  await page.waitForFunction(() => document.querySelectorAll(".chart-group").length === 3 && document.querySelectorAll(".chart polyline").length >= 3, { timeout: 20_000 });

  await tabTo(() => document.activeElement?.getAttribute("aria-label") === "Resume hook-halt", undefined, { what: "the Resume button" });
  await page.keyboard.press("Enter");
  await waitForText("Resumed hook-halt");
  await page.waitForSelector('tr[data-key="hook-halt"] .badge-ok', { timeout: 20_000 });
  const delivered = await eventually(() => {
    const got = receiver.received("/gone").filter((r) => r.answeredWith.status === 200);
    assert.ok(got.length >= 1);
    return got;
  });
  assert.equal(delivered[0].body.event.offset, 1, "delivery resumed where it halted");
  await shot("07-subscriptions");
  if (process.env.UPDATE_CONSOLE_SCREENSHOT === "1") {
    mkdirSync(join(ROOT, "docs"), { recursive: true });
    copyFileSync(join(SHOTS, "07-subscriptions.png"), join(ROOT, "docs", "console.png"));
  }
});

test("§14: dead letters: replay one (confirmed with the keyboard), then discard all of a subscription", async () => {
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/dead-letters?subscriptionKey=hook-skip`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("tbody tr[data-id]");
  assert.equal((await page.$$("tbody tr[data-id]")).length, 1);
  await shot("08-dead-letters");
  const before = receiver.received("/flaky").length;

  await tabTo(() => /^Replay dead letter/.test(document.activeElement?.getAttribute("aria-label") ?? ""), undefined, { what: "Replay" });
  await page.keyboard.press("Enter");
  await page.waitForSelector("dialog[open]");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel", "the dialog opens on Cancel");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Replay");
  await page.keyboard.press("Enter");
  await waitForText("was delivered and removed");
  await waitForText("No dead letters for hook-skip");
  assert.equal(receiver.received("/flaky").length, before + 1, "one replay was sent");
  assert.equal((await t.request("GET", `${streamUrl(STREAM, "dead-letters")}?subscriptionKey=hook-skip`)).body.deadLetters.length, 0);

  // Two more dead letters, then discard them all; and a Cancel discards nothing.
  receiver.script("/flaky", { status: 500 });
  await api.appendOk(STREAM, { type: "order.created", payload: { id: 2 } });
  await api.appendOk(STREAM, { type: "order.created", payload: { id: 3 } });
  await eventually(async () => {
    const letters = (await t.request("GET", `${streamUrl(STREAM, "dead-letters")}?subscriptionKey=hook-skip`)).body.deadLetters;
    assert.equal(letters.length, 2);
  });
  await page.reload();
  await page.waitForSelector("tbody tr[data-id]");
  await page.click('button[data-focus-key="dl-discard-all"]');
  await page.waitForSelector("dialog[open]");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog"));
  assert.equal((await page.$$("tbody tr[data-id]")).length, 2, "cancelled: nothing discarded");
  await page.click('button[data-focus-key="dl-discard-all"]');
  await page.waitForSelector("dialog[open]");
  await page.click("dialog .btn-danger");
  await waitForText("Discarded 2 dead letter(s) of hook-skip");
  assert.equal((await t.request("GET", `${streamUrl(STREAM, "dead-letters")}?subscriptionKey=hook-skip`)).body.deadLetters.length, 0);
});

test("§14: processors: definitions, each instance's checkpoint and state", async () => {
  await page.goto(`${t.url}/console/#/processors`);
  await pageRendered(page, WAIT);
  await waitForText("order-count");
  await waitForText("counts order events");
  await shot("09-processors");
  await page.click('a[href="#/processors/order-count"]');
  await waitForText("Initial state");
  // Three order.created events were appended (ids 1, 2, 3); the fold counts them.
  const expected = await eventually(async () => {
    const res = await t.request("GET", streamUrl(STREAM, "processors/order-count"));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.state, { n: 3 });
    return res.body;
  });
  await page.waitForFunction((path) => [...document.querySelectorAll("tbody tr")].some((row) => row.innerText.includes(path)), {}, STREAM);
  await shot("10-processor");
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/processors`);
  await pageRendered(page, WAIT);
  await page.waitForFunction(() => [...document.querySelectorAll("main .facts")].some((dl) => dl.textContent.includes("Checkpoint offset")));
  const text = await page.evaluate(() => document.querySelector("main").textContent);
  assert.ok(text.includes('"n": 3'), `state ${JSON.stringify(expected.state)} shown`);
  // (textContent: the fact labels are upper-cased by CSS in innerText.)
  assert.match(text, new RegExp(`Checkpoint offset\\s*${expected.checkpointOffset}(?!\\d)`));
  await shot("11-stream-processors");
});

test("§14 §16: the stream view shows retention, firstOffset, bytes and trimmed events; a subscription's trimmed pass; pages start at firstOffset", async () => {
  const keepAll = await api.infoOk(STREAM);
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/events`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("dd[data-field=retention]");
  const plain = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".facts dd[data-field]")].map((dd) => [dd.dataset.field, dd.textContent])));
  assert.equal(plain.retention, "keep everything");
  assert.equal(plain["first-offset"], "1");
  assert.equal(plain["trimmed-events"], "0");
  assert.equal(keepAll.firstOffset, 1);
  // A stream first written natively (§17): JSON, open, never expiring.
  assert.deepEqual([plain["content-type"], plain.closed, plain.expiry], ["application/json", "no", "never"]);

  // A subscription halted on a receiver that is down; then retention and 30 events in one batch: one pass, one fact.
  receiver.script("/down", { status: 503 });
  await api.appendOk(RETAINED, { type: CONFIGURED, payload: webhook("hook-down", "/down", "halt", ["data"]) });
  await api.appendOk(RETAINED, { type: "data", payload: { first: true } });
  await eventually(async () => assert.ok((await api.cardOk(RETAINED)).subscriptions[0]?.deliveryHalted, "hook-down halted"), { what: "hook-down halted" });
  const data = Array.from({ length: 30 }, (_, i) => ({ type: "data", payload: { i } }));
  await api.batchOk(RETAINED, [{ type: RETENTION, payload: { maxEvents: 5, trimPastSubscribers: true } }, ...data]);
  const { info, pass } = await eventually(
    async () => {
      const entry = (await api.cardOk(RETAINED)).subscriptions.find((s) => s.subscriptionKey === "hook-down");
      assert.ok(entry?.trimmed, "a trimmed pass on the card");
      const seen = await api.infoOk(RETAINED);
      assert.ok(seen.firstOffset > entry.trimmed.lastThroughOffset, "trimmed through the pass");
      return { info: seen, pass: entry.trimmed };
    },
    { what: "retention trimmed past hook-down", timeoutMs: 20_000 },
  );

  await page.goto(`${t.url}/console/#/streams${RETAINED}/-/events?after=0`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("dd[data-field=retention]");
  const facts = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".facts dd[data-field]")].map((dd) => [dd.dataset.field, dd.textContent])));
  assert.equal(facts.retention, "at most 5 events, trims past subscribers");
  assert.equal(facts["first-offset"], String(info.firstOffset));
  assert.equal(facts["trimmed-events"], String(info.trimmedEvents));
  assert.match(facts.bytes, /^\d+(\.\d)? (B|KiB)$/);
  // A page asked for before firstOffset starts at it, not at a 410.
  await page.waitForSelector(`.events li[data-offset="${info.firstOffset}"]`);
  assert.equal(await page.$('[data-focus-key="oldest"]'), null, "no older page than firstOffset");
  await shot("12-retention");

  await page.goto(`${t.url}/console/#/streams${RETAINED}/-/subscriptions`);
  await pageRendered(page, WAIT);
  await page.waitForSelector('tr[data-key="hook-down"] .trimmed-pass');
  const note = await page.$eval('tr[data-key="hook-down"] .trimmed-pass', (el) => el.innerText);
  assert.match(note, /trimmed past/i);
  assert.ok(note.includes(`${pass.eventsPassed} offset(s) trimmed before delivery`), note);
  assert.ok(note.includes(`after ${pass.lastAfterOffset} through ${pass.lastThroughOffset}`), note);
  assert.ok(note.includes(`#${pass.lastFactOffset}`), note);
  await shot("13-trimmed-pass");
});

test("§17: the stream view shows a Durable Streams stream's content type, closure and expiry", async () => {
  const path = "console-e2e/protocol";
  const protocol = (method, headers, body) => fetch(`${t.url}/v1/stream/${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, body });
  assert.equal((await protocol("PUT", { "content-type": "text/plain; charset=utf-8", "stream-ttl": "3600" }, "hello")).status, 201);
  assert.equal((await protocol("POST", { "content-type": "text/plain", "stream-closed": "true" }, " world")).status, 204);
  const info = await api.infoOk(`/${path}`);
  await page.goto(`${t.url}/console/#/streams/${path}/-/events`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("dd[data-field=content-type]");
  const facts = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".facts dd[data-field]")].map((dd) => [dd.dataset.field, dd.textContent])));
  assert.equal(facts["content-type"], "text/plain; charset=utf-8");
  assert.equal(facts.closed, `at offset ${info.closedAtOffset}`);
  assert.match(facts.expiry, /^1 h idle \(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)$/);
  assert.equal(facts.forks, "0");
  assert.equal(facts["forked-from"], undefined, "not a fork");
  // A fork (§18) shows its source and fork point; the source counts it.
  const fork = await fetch(`${t.url}/v1/streams/${path}-fork/-/fork`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ from: `/${path}`, at: 2 }),
  });
  assert.equal(fork.status, 201, await fork.clone().text());
  await page.goto(`${t.url}/console/#/streams/${path}-fork/-/events`);
  await pageRendered(page, WAIT);
  await page.waitForSelector("dd[data-field=forked-from]");
  assert.equal(await page.$eval("dd[data-field=forked-from]", (dd) => dd.textContent), `/${path} at offset 2`);
  await page.goto(`${t.url}/console/#/streams/${path}/-/events`);
  await pageRendered(page, WAIT);
  await page.waitForFunction(() => document.querySelector("dd[data-field=forks]")?.textContent === "1");
  // The byte messages are events of the same log, shown with their text.
  await page.waitForSelector(`.events li[data-offset="${info.closedAtOffset - 1}"]`);
  const listed = await page.evaluate(() => document.querySelector(".events").textContent);
  assert.ok(listed.includes("hello") && listed.includes(" world"), listed.slice(0, 400));
  await shot("14-durable-streams");
  // The streams list shows each stream's content type, and that this one is closed.
  await page.goto(`${t.url}/console/#/streams?prefix=${encodeURIComponent("/console-e2e/protocol")}`);
  await pageRendered(page, WAIT);
  await page.waitForFunction(
    (p) => [...document.querySelectorAll("tbody tr")].some((row) => row.innerText.includes(p) && row.querySelector("td[data-field=content-type] code")),
    {},
    `/${path}`,
  );
  const cells = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll("tbody tr")].map((row) => [row.querySelector("th").innerText, row.querySelector("td[data-field=content-type]").innerText])));
  assert.match(cells[`/${path}`], /^text\/plain; charset=utf-8\s*closed$/);
});

test("§2 Scopes §14: signed in with a read-only token, the console hides delete, append, resume, replay and discard", async () => {
  await page.evaluate((token) => sessionStorage.setItem("tributary.console.token", token), READ_TOKEN);
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/events`);
  await pageRendered(page, WAIT);
  // The page has rendered the stream (its events and the scope answer) before absence is judged.
  await waitForText("order.created");
  await page.waitForFunction(() => document.querySelector("[data-focus-key=delete-stream]")?.hidden === true);
  const visible = (selector) => page.evaluate((s) => [...document.querySelectorAll(s)].filter((el) => el.closest("[hidden]") === null).length, selector);
  assert.equal(await visible("[data-focus-key=append]"), 0, "the append form is hidden");
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/subscriptions`);
  await pageRendered(page, WAIT);
  await page.waitForFunction(() => document.querySelector("tr[data-key=hook-halt]") !== null);
  assert.equal(await visible("[data-focus-key^='resume:']"), 0, "no Resume");
  await page.goto(`${t.url}/console/#/streams${STREAM}/-/dead-letters?subscriptionKey=hook-skip`);
  await pageRendered(page, WAIT);
  await page.waitForFunction(() => document.querySelector("[data-focus-key=dl-show]") !== null);
  assert.equal(await visible("[data-focus-key^='replay:'], [data-focus-key^='discard:'], [data-focus-key=dl-discard-all]"), 0);
  await shot("14-read-only");
  await page.evaluate((token) => sessionStorage.setItem("tributary.console.token", token), TOKEN);
});

test("§14: signing out clears the token; the console has logged no errors and no CSP violation", async () => {
  await page.click("#sign-out");
  await page.waitForFunction(() => location.hash.startsWith("#/signin"));
  assert.equal(await page.evaluate(() => sessionStorage.getItem("tributary.console.token")), null);
  await page.goto(`${t.url}/console/#/streams`);
  await page.waitForFunction(() => location.hash.startsWith("#/signin"));
  assert.deepEqual(consoleProblems, []);
  assert.deepEqual(dialogs, []);
});
