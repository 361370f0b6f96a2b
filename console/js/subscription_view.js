// One subscription (`#/streams{path}/-/subscription?key=K`, or no key for a
// new one): its debug-card entry, the configuration form (replace), and the
// control events of §4 — cursor-set (never before firstOffset: 410
// `trimmed`, §16), resume and remove — each appended to the stream.
import { h, replace, errorBox, notice, jsonBlock, confirmDialog, field, settleFocus } from "./dom.js";
import { api, streamRoute, CONTROL, RESUMED, receiverText } from "./api.js";
import { href } from "./hash.js";
import { subscriptionForm } from "./subscription_form.js";
import { clearFieldErrors, showFieldError } from "./field_errors.js";

const CURSOR_SET = `${CONTROL}subscription-cursor-set`;
const REMOVED = `${CONTROL}subscription-removed`;
const DONE = { configured: "Configured", resumed: "Resumed", cursor: "Set the cursor of" };

/** `#/streams{path}/-/subscription?key=…`: the link to one subscription (or to a new one). */
export const subscriptionHref = (path, key) => href(`/streams${path}/-/subscription`, { key });

async function appendControl(path, type, payload) {
  return (await api("POST", streamRoute(path, "events"), { body: { type, payload } })).event;
}

export async function subscriptionPage(root, ctx, path) {
  const key = ctx.query.key;
  ctx.title(key ? `${key} · ${path}` : `New subscription · ${path}`);
  const status = h("div", { "aria-live": "polite" });
  root.append(
    h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: href("/streams") }, "Streams"),
      " / ",
      h("a", { href: href(`/streams${path}/-/subscriptions`) }, path),
      " / ",
    ),
    h("h1", { tabindex: "-1", class: "path" }, key ?? "New subscription"),
    status,
  );
  const done = DONE[ctx.query.done];
  if (done && ctx.query.at) replace(status, notice(`${done} ${key} (event at offset ${ctx.query.at}).`));
  // Each action appends one event; the page is drawn again from the card, the offset in the URL.
  const after = (configuredKey, what, committed) => ctx.redirect(`/streams${path}/-/subscription`, { key: configuredKey, done: what, at: committed.offset });
  const onConfigured = (configuredKey, committed) => after(configuredKey, "configured", committed);
  if (!key) {
    root.append(subscriptionForm(path, { onConfigured }));
    ctx.autofocus = root.querySelector("select, input");
    return;
  }
  let card;
  let info;
  try {
    [card, info] = await Promise.all([api("GET", streamRoute(path, "subscriptions")), api("GET", streamRoute(path))]);
  } catch (error) {
    root.append(error.status === 404 ? h("p", { class: "empty" }, "This stream does not exist.") : errorBox(error));
    return;
  }
  const entry = (card.subscriptions ?? []).find((sub) => sub.subscriptionKey === key);
  if (!entry) {
    root.append(h("p", { class: "notice notice-warn" }, `No subscription ${key} on ${path} (it was removed, or never configured). The form below creates it.`), subscriptionForm(path, { key, onConfigured }));
    return;
  }
  const rerender = (what, committed) => after(key, what, committed);
  root.append(
    entrySummary(entry, path, status, rerender),
    h("div", { class: "grid-2 actions-row" }, cursorForm(path, key, info, entry, rerender), removeSection(path, key, status)),
    subscriptionForm(path, { key, configuration: entry.configuration, onConfigured }),
  );
}

/** What the debug card says about it, with Resume when halted. */
function entrySummary(entry, path, status, rerender) {
  const runtime = entry.runtime ?? {};
  const receiver = entry.configuration?.receiver ?? {};
  const item = (term, value, name) => h("div", null, h("dt", null, term), h("dd", { dataset: name ? { field: name } : undefined }, value));
  const halted = entry.deliveryHalted;
  const resume = h("button", { type: "button", class: "btn", dataset: { focusKey: "resume" } }, "Resume delivery");
  resume.addEventListener("click", async () => {
    resume.disabled = true;
    try {
      rerender("resumed", await appendControl(path, RESUMED, { subscriptionKey: entry.subscriptionKey }));
    } catch (error) {
      replace(status, errorBox(error, { title: "Resume failed" }));
      resume.disabled = false;
      settleFocus(status);
    }
  });
  return h(
    "section",
    { class: "card", "aria-label": "Delivery" },
    h(
      "dl",
      { class: "facts" },
      item("Receiver", `${receiver.action ?? "—"}: ${receiverText(receiver)}`),
      item("Acknowledged through", String(runtime.acknowledgedOffset ?? "—"), "acknowledged"),
      item("Lag", String(runtime.lag ?? "—"), "lag"),
      item("Attempt", String(runtime.attempt ?? "—")),
      item("Last error", runtime.lastError ?? "—"),
      item("Status", halted ? `halted (${halted.reason}, after offset ${halted.afterOffset})` : entry.invalid ? "invalid" : "running", "status"),
    ),
    halted ? h("div", { class: "actions" }, resume) : null,
    h("details", null, h("summary", null, "Stored configuration"), jsonBlock(entry.configuration, { label: "Stored configuration" })),
  );
}

/** Cursor-set: redeliver from after an offset (or skip ahead); firstOffset − 1 is the lowest allowed. */
function cursorForm(path, key, info, entry, rerender) {
  const firstOffset = info?.firstOffset ?? 1;
  const afterOffset = h("input", { type: "text", inputmode: "numeric", id: "cursor-after", class: "narrow", dataset: { apiField: "afterOffset" }, value: String(entry.runtime?.acknowledgedOffset ?? firstOffset - 1) });
  const submit = h("button", { type: "submit", class: "btn", dataset: { focusKey: "cursor-set" } }, "Set cursor");
  const form = h(
    "form",
    { class: "card", novalidate: true, "aria-labelledby": "cursor-title" },
    h("h2", { id: "cursor-title" }, "Set the cursor"),
    field("Deliver events after offset", afterOffset, `Readable from offset ${firstOffset} (lowest: ${firstOffset - 1}); head ${info?.head ?? 0}. Starts a new delivery run.`),
    h("div", { class: "actions" }, submit),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const text = afterOffset.value.trim();
    const value = /^\d+$/.test(text) ? Number(text) : text;
    submit.disabled = true;
    try {
      rerender("cursor", await appendControl(path, CURSOR_SET, { subscriptionKey: key, afterOffset: value }));
    } catch (error) {
      showFieldError(form, error, afterOffset);
      submit.disabled = false;
    }
  });
  return form;
}

function removeSection(path, key, status) {
  const remove = h("button", { type: "button", class: "btn btn-danger-outline", dataset: { focusKey: "remove" } }, "Remove subscription…");
  remove.addEventListener("click", async () => {
    const ok = await confirmDialog({
      title: `Remove ${key}?`,
      message: `Appends subscription-removed: ${key} stops delivering. Its dead letters stay until discarded.`,
      confirmLabel: "Remove",
      danger: true,
    });
    if (!ok) return;
    try {
      const committed = await appendControl(path, REMOVED, { subscriptionKey: key, reason: "requested" });
      location.hash = href(`/streams${path}/-/subscriptions`, { removed: key, at: committed.offset });
    } catch (error) {
      replace(status, errorBox(error, { title: "Remove failed" }));
      settleFocus(status);
    }
  });
  return h("section", { class: "card", "aria-labelledby": "remove-title" }, h("h2", { id: "remove-title" }, "Remove"), h("p", { class: "muted small" }, "Ends this subscription. Configuring the key again starts it anew."), h("div", { class: "actions" }, remove));
}
