// The debug card (GET /-/subscriptions) as a table, polled while the page is
// open, with halts and a Resume action, and plots of completion latency
// (p50, p99) and lag sampled at every poll.
import { h, replace, errorBox, notice, jsonBlock, ago, bytes, settleFocus } from "./dom.js";
import { api, streamRoute, RESUMED, receiverText } from "./api.js";
import { href } from "./hash.js";
import { lineChart } from "./chart.js";
import { subscriptionHref } from "./subscription_view.js";

const POLL_MS = 2000;
const KEEP_SAMPLES = 300;

function whenText(value) {
  if (value === null || value === undefined) return "—";
  const ms = typeof value === "number" ? value : Date.parse(value);
  return Number.isNaN(ms) ? String(value) : ago(ms);
}

function statusCell(sub, onResume) {
  if (sub.deliveryHalted) {
    const halted = sub.deliveryHalted;
    return h(
      "div",
      { class: "status-cell" },
      h("span", { class: "badge badge-danger", title: `${halted.reason} after ${halted.attempts} attempt(s)${halted.error ? `: ${halted.error}` : ""}` }, "halted"),
      h("span", { class: "small muted" }, `${halted.reason}, after offset ${halted.afterOffset}`),
      onResume
        ? h("button", { type: "button", class: "btn btn-small", dataset: { focusKey: `resume:${sub.subscriptionKey}` }, onclick: (e) => onResume(sub.subscriptionKey, e.currentTarget), "aria-label": `Resume ${sub.subscriptionKey}` }, "Resume")
        : null,
    );
  }
  if (sub.invalid) return h("span", { class: "badge badge-danger", title: JSON.stringify(sub.invalid) }, "invalid");
  const runtime = sub.runtime ?? {};
  if (runtime.attempt > 0) return h("span", { class: "badge badge-warn" }, "retrying");
  if (runtime.lag > 0) return h("span", { class: "badge badge-info" }, "delivering");
  return h("span", { class: "badge badge-ok" }, "caught up");
}

/** What retention trimmed before this subscription received it (§16 trimPastSubscribers), when it did. */
function trimmedNote(sub, path) {
  const pass = sub.trimmed;
  if (!pass) return null;
  return h(
    "div",
    { class: "status-cell trimmed-pass" },
    h("span", { class: "badge badge-warn", title: `retention trimmed offsets ${pass.lastAfterOffset + 1}–${pass.lastThroughOffset} before delivery` }, "trimmed past"),
    h(
      "span",
      { class: "small muted" },
      `${pass.eventsPassed} offset(s) trimmed before delivery; last: after ${pass.lastAfterOffset} through ${pass.lastThroughOffset}, fact `,
      h("a", { href: href(`/streams${path}/-/events`, { after: pass.lastFactOffset - 1 }) }, `#${pass.lastFactOffset}`),
    ),
  );
}

export async function subscriptionsTab(panel, ctx, stream) {
  const path = stream.path;
  const samples = new Map();
  const openConfigs = new Set();
  const actionStatus = h("div", { "aria-live": "polite" });
  const tableRegion = h("div", null, h("p", { class: "muted" }, "Loading…"));
  const chartsRegion = h("div", { class: "charts" });
  const connectionsRegion = h("div");
  if (ctx.query.removed) replace(actionStatus, notice(`Removed ${ctx.query.removed} (event at offset ${ctx.query.at}).`));
  panel.append(
    h("div", { class: "toolbar" }, h("a", { class: "btn btn-primary", href: subscriptionHref(path), dataset: { focusKey: "new-subscription" } }, "New subscription")),
    actionStatus,
    tableRegion,
    h("h2", null, "Latency and lag"),
    h("p", { class: "muted small" }, `Sampled every ${POLL_MS / 1000} s while this page is open.`),
    chartsRegion,
    connectionsRegion,
  );

  async function resume(key, button) {
    button.disabled = true;
    try {
      const answer = await api("POST", streamRoute(path, "events"), { body: { type: RESUMED, payload: { subscriptionKey: key } } });
      replace(actionStatus, notice(`Resumed ${key} (event at offset ${answer.event.offset}).`));
    } catch (error) {
      replace(actionStatus, errorBox(error, { title: `Resume of ${key} failed` }));
    }
    await poll();
    settleFocus(actionStatus);
  }

  function record(card) {
    const now = Date.now();
    for (const sub of card.subscriptions ?? []) {
      const runtime = sub.runtime ?? {};
      const list = samples.get(sub.subscriptionKey) ?? [];
      list.push({ t: now, p50: runtime.completionLatencyMs?.p50 ?? null, p99: runtime.completionLatencyMs?.p99 ?? null, lag: runtime.lag ?? null });
      if (list.length > KEEP_SAMPLES) list.shift();
      samples.set(sub.subscriptionKey, list);
    }
  }

  function render(card) {
    const subs = card.subscriptions ?? [];
    if (subs.length === 0) {
      replace(tableRegion, h("p", { class: "empty" }, "No subscriptions on this stream. New subscription adds one."));
    } else {
      const rows = subs.map((sub) => {
        const runtime = sub.runtime ?? {};
        const receiver = sub.configuration?.receiver ?? {};
        const config = h("details", { open: openConfigs.has(sub.subscriptionKey) }, h("summary", { dataset: { focusKey: `config:${sub.subscriptionKey}` } }, h("code", null, sub.subscriptionKey)), jsonBlock(sub.configuration, { label: `Configuration of ${sub.subscriptionKey}` }));
        config.addEventListener("toggle", () => (config.open ? openConfigs.add(sub.subscriptionKey) : openConfigs.delete(sub.subscriptionKey)));
        const deadLetters = runtime.deadLetters ?? 0;
        return h(
          "tr",
          { class: sub.deliveryHalted ? "halted" : null, dataset: { key: sub.subscriptionKey } },
          h("th", { scope: "row" }, config, h("a", { class: "small", href: subscriptionHref(path, sub.subscriptionKey), dataset: { focusKey: `open:${sub.subscriptionKey}` }, "aria-label": `Configure ${sub.subscriptionKey}` }, "Configure…")),
          h("td", null, receiver.action ?? "—"),
          h("td", { class: "wrap" }, receiverText(receiver)),
          h("td", { class: "num" }, String(runtime.lag ?? "—")),
          h("td", { class: "num" }, String(runtime.attempt ?? "—")),
          h("td", null, whenText(runtime.nextAttemptAt)),
          h("td", { class: "wrap error-text" }, runtime.lastError ?? h("span", { class: "muted" }, "—")),
          h("td", { class: "num" }, String(runtime.completionLatencyMs?.p50 ?? "—"), " / ", String(runtime.completionLatencyMs?.p99 ?? "—")),
          h(
            "td",
            { class: "num" },
            deadLetters > 0
              ? h("a", { href: href(`/streams${path}/-/dead-letters`, { subscriptionKey: sub.subscriptionKey }), dataset: { focusKey: `dl:${sub.subscriptionKey}` }, "aria-label": `${deadLetters} dead letters of ${sub.subscriptionKey}` }, String(deadLetters))
              : "0",
          ),
          h("td", null, statusCell(sub, stream.may?.manage === false ? null : resume), trimmedNote(sub, path)),
        );
      });
      replace(
        tableRegion,
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "table subs" },
            h("caption", { class: "sr-only" }, "Subscriptions (debug card)"),
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                ["Subscription", "Action", "Receiver", "Lag", "Attempt", "Next attempt", "Last error", "Latency p50 / p99 (ms)", "Dead letters", "Status"].map((label) =>
                  h("th", { scope: "col", class: ["Lag", "Attempt", "Dead letters", "Latency p50 / p99 (ms)"].includes(label) ? "num" : null }, label),
                ),
              ),
            ),
            h("tbody", null, rows),
          ),
        ),
        h("p", { class: "muted small" }, `Updated ${new Date().toLocaleTimeString()}.`),
      );
    }
    replace(
      chartsRegion,
      subs.map((sub) => {
        const list = samples.get(sub.subscriptionKey) ?? [];
        return h(
          "section",
          { class: "chart-group card", "aria-label": `Charts of ${sub.subscriptionKey}` },
          h("h3", null, h("code", null, sub.subscriptionKey)),
          h(
            "div",
            { class: "chart-row" },
            lineChart({
              title: "Completion latency (ms)",
              unit: "ms",
              series: [
                { name: "p50", cls: "s1", points: list.map((p) => ({ t: p.t, v: p.p50 })) },
                { name: "p99", cls: "s2", points: list.map((p) => ({ t: p.t, v: p.p99 })) },
              ],
            }),
            lineChart({ title: "Lag (events)", series: [{ name: "lag", cls: "s3", points: list.map((p) => ({ t: p.t, v: p.lag })) }] }),
          ),
        );
      }),
    );
    const connections = card.connections ?? [];
    replace(
      connectionsRegion,
      h("h2", null, "Live connections"),
      connections.length === 0
        ? h("p", { class: "empty" }, "No open live connections.")
        : h(
            "table",
            { class: "table" },
            h("thead", null, h("tr", null, ["Key", "Transport", "Opened", "Delivered through", "Events sent", "Bytes sent"].map((label) => h("th", { scope: "col" }, label)))),
            h(
              "tbody",
              null,
              connections.map((c) =>
                h("tr", null, h("td", null, h("code", null, c.connectionKey ?? "")), h("td", null, c.transport ?? ""), h("td", null, whenText(c.openedAt)), h("td", { class: "num" }, String(c.deliveredThroughOffset ?? "—")), h("td", { class: "num" }, String(c.eventsSent ?? "—")), h("td", { class: "num" }, bytes(c.bytesSent))),
              ),
            ),
          ),
    );
  }

  let timer = null;
  async function poll() {
    clearTimeout(timer);
    if (!ctx.alive()) return;
    try {
      const card = await api("GET", streamRoute(path, "subscriptions"));
      if (!ctx.alive()) return;
      record(card);
      render(card);
    } catch (error) {
      if (!ctx.alive()) return;
      replace(tableRegion, error.status === 404 ? h("p", { class: "empty" }, "This stream does not exist.") : errorBox(error));
    }
    if (ctx.alive()) timer = setTimeout(poll, document.hidden ? POLL_MS * 5 : POLL_MS);
  }
  ctx.onCleanup(() => clearTimeout(timer));
  await poll();
}
