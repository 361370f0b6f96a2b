// One stream: its lifetime and head, and tabs for events (paged, with the
// append form), the live tail (WebSocket), subscriptions, dead letters and
// processors.
import { h, replace, time, errorBox, notice, jsonBlock, preview, confirmDialog, field, bytes } from "./dom.js";
import { api, session, streamRoute, can } from "./api.js";
import { href } from "./hash.js";
import { subscriptionsTab } from "./subscriptions.js";
import { deadLettersTab } from "./dead_letters.js";
import { streamProcessorsTab } from "./processors.js";
import { retentionForm } from "./retention_form.js";

export const STREAM_TABS = [
  { id: "events", label: "Events" },
  { id: "live", label: "Live tail" },
  { id: "subscriptions", label: "Subscriptions" },
  { id: "dead-letters", label: "Dead letters" },
  { id: "processors", label: "Processors" },
];

const PAGE_SIZE = 50;
const LIVE_KEEP = 500;

export async function streamPage(root, ctx, path, tab) {
  const tabLabel = STREAM_TABS.find((t) => t.id === tab)?.label ?? tab;
  ctx.title(`${path} · ${tabLabel}`);
  const summary = h("div", { class: "summary", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
  const deleteButton = h("button", { type: "button", class: "btn btn-danger-outline", dataset: { focusKey: "delete-stream" } }, "Delete stream…");
  const status = h("div");
  root.append(
    h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("a", { href: href("/streams") }, "Streams"), h("span", { "aria-hidden": "true" }, " / ")),
    h("div", { class: "title-row" }, h("h1", { tabindex: "-1", class: "path" }, path), deleteButton),
    summary,
    status,
    h(
      "nav",
      { class: "tabs", "aria-label": "Stream sections" },
      STREAM_TABS.map((t) =>
        h("a", { href: href(`/streams${path}/-/${t.id}`), "aria-current": t.id === tab ? "page" : null, dataset: { focusKey: `tab:${t.id}` } }, t.label),
      ),
    ),
  );
  const panel = h("section", { class: "panel", "aria-label": tabLabel });
  root.append(panel);

  const stream = {
    path,
    info: null,
    /** Re-reads the stream's info into the summary. */
    async refresh() {
      try {
        stream.info = await api("GET", streamRoute(path));
        replace(summary, summaryList(stream.info));
      } catch (error) {
        stream.info = null;
        replace(
          summary,
          error.status === 404
            ? h("p", { class: "notice notice-warn" }, "This stream has no events: it was never written, or it was deleted. An append creates it.")
            : errorBox(error),
        );
      }
      return stream.info;
    },
    setHead(head) {
      const dd = summary.querySelector("[data-field=head]");
      if (dd && typeof head === "number") dd.textContent = String(head);
    },
  };
  deleteButton.addEventListener("click", async () => {
    const ok = await confirmDialog({
      title: "Delete this stream?",
      message: `Deleting ${path} destroys its events, subscriptions and dead letters. The next write starts a new lifetime with a new stream id.`,
      confirmLabel: "Delete stream",
      danger: true,
    });
    if (!ok) return;
    try {
      await api("DELETE", streamRoute(path));
      await stream.refresh();
      replace(status, notice(`Deleted ${path}.`));
    } catch (error) {
      replace(status, errorBox(error, { title: "Delete failed" }));
    }
  });

  await stream.refresh();
  const [mayAppend, mayManage] = await Promise.all([can("append", path), can("manage", path)]);
  stream.may = { append: mayAppend, manage: mayManage };
  deleteButton.hidden = !mayManage;
  if (!ctx.alive()) return;
  summary.after(retentionForm(path, stream.info?.retention, () => stream.refresh()));
  const tabs = {
    events: eventsTab,
    live: liveTab,
    subscriptions: subscriptionsTab,
    "dead-letters": deadLettersTab,
    processors: streamProcessorsTab,
  };
  await tabs[tab](panel, ctx, stream);
}

function summaryList(info) {
  const item = (term, value, name) => h("div", null, h("dt", null, term), h("dd", { dataset: name ? { field: name } : undefined }, value));
  return h(
    "dl",
    { class: "facts" },
    item("Head", String(info.head), "head"),
    item("Events", String(info.eventCount), "count"),
    item("Content type", h("code", null, info.contentType ?? "application/json"), "content-type"),
    item("Closed", closedText(info), "closed"),
    item("Expiry", expiryText(info), "expiry"),
    ...(info.forkedFrom
      ? [item("Forked from", h("span", null, h("a", { href: href(`/streams${info.forkedFrom.path}/-/events`) }, info.forkedFrom.path), ` at offset ${info.forkedFrom.forkPoint}`), "forked-from")]
      : []),
    item("Forks", String(info.forks ?? 0), "forks"),
    item("Stream id", h("code", { class: "id" }, info.streamId)),
    item("Created", time(info.streamCreatedAt)),
    item("Subscriptions", String(Object.keys(info.state?.subscriptions?.outbound?.byKey ?? {}).length)),
    item("Retention", retentionText(info.retention), "retention"),
    item("First offset", String(info.firstOffset ?? 1), "first-offset"),
    item("Bytes", bytes(info.bytes), "bytes"),
    item("Trimmed events", String(info.trimmedEvents ?? 0), "trimmed-events"),
  );
}

/** Closure (§17): "no", or "at offset N" (the `stream-closed` event). */
export function closedText(info) {
  if (!info.closed) return "no";
  return info.closedAtOffset !== undefined ? `at offset ${info.closedAtOffset}` : "yes";
}

/** Expiry (§17): "never", a sliding TTL, or an instant; with the deadline as the stream knows it. */
export function expiryText(info) {
  const expiry = info.expiry ?? {};
  const deadline = info.expiresAt ? ` (${info.expiresAt.slice(0, 10)} ${info.expiresAt.slice(11, 19)} UTC)` : "";
  if (expiry.ttlSeconds !== undefined) return `${durationText(expiry.ttlSeconds * 1000)} idle${deadline}`;
  if (expiry.expiresAt !== undefined) return `at ${expiry.expiresAt}`;
  return "never";
}

/** A stream's retention (§16) in words: its limits, or "keep everything". */
export function retentionText(retention) {
  if (!retention) return "keep everything";
  const limits = [];
  if (retention.maxEvents !== undefined) limits.push(`${retention.maxEvents} events`);
  if (retention.maxBytes !== undefined) limits.push(bytes(retention.maxBytes));
  if (retention.maxAgeMs !== undefined) limits.push(`${durationText(retention.maxAgeMs)} old`);
  const past = retention.trimPastSubscribers ? ", trims past subscribers" : "";
  return `at most ${limits.join(", ")}${past}`;
}

function durationText(ms) {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms} ms`;
}

/** One committed event: a disclosure whose summary line shows offset, type, time and a payload preview. */
export function eventItem(event, { fresh = false } = {}) {
  return h(
    "li",
    { class: `event${fresh ? " fresh" : ""}`, dataset: { offset: event.offset } },
    h(
      "details",
      null,
      h(
        "summary",
        null,
        h("span", { class: "offset" }, `#${event.offset}`),
        h("span", { class: "type" }, event.type),
        event.ephemeral ? h("span", { class: "badge badge-muted" }, "ephemeral") : null,
        event.source ? h("span", { class: "badge badge-info" }, "copy") : null,
        time(event.createdAt),
        h("span", { class: "preview" }, preview(event.payload)),
      ),
      jsonBlock(event, { label: `Event ${event.offset} as JSON` }),
    ),
  );
}

async function eventsTab(panel, ctx, stream) {
  const path = stream.path;
  const ephemeral = ctx.query.ephemeral === "true";
  const region = h("div", { class: "events-region" });
  const appendSection = appendForm(path, async (event) => {
    await stream.refresh();
    await load(undefined, event.offset);
  });
  // Data events need `append`, control events `manage` (§2 Scopes).
  appendSection.hidden = !stream.may.append && !stream.may.manage;
  panel.append(region, appendSection);

  async function load(afterParam, highlight) {
    const head = stream.info?.head ?? 0;
    // Nothing before firstOffset is readable (§16): pages start at firstOffset − 1 at the earliest.
    const oldest = Math.max(0, (stream.info?.firstOffset ?? 1) - 1);
    const after = Math.max(oldest, afterParam !== undefined ? Number(afterParam) || 0 : head - PAGE_SIZE);
    let page;
    try {
      page = await api("GET", streamRoute(path, "events"), { query: { after, limit: PAGE_SIZE, includeEphemeral: ephemeral ? "true" : undefined } });
    } catch (error) {
      replace(region, error.status === 404 ? h("p", { class: "empty" }, "No events.") : errorBox(error));
      return;
    }
    const events = page.events ?? [];
    const q = (extra) => ({ ephemeral: ephemeral ? "true" : undefined, ...extra });
    const base = `/streams${path}/-/events`;
    const latestAfter = Math.max(0, page.head - PAGE_SIZE);
    const pager = h(
      "nav",
      { class: "pager", "aria-label": "Pages of events" },
      after > oldest ? h("a", { class: "btn", href: href(base, q({ after: oldest })), dataset: { focusKey: "oldest" } }, "Oldest") : null,
      after > oldest ? h("a", { class: "btn", href: href(base, q({ after: Math.max(oldest, after - PAGE_SIZE) })), dataset: { focusKey: "older" } }, "Older") : null,
      page.nextAfter < page.head ? h("a", { class: "btn", href: href(base, q({ after: page.nextAfter })), dataset: { focusKey: "newer" } }, "Newer") : null,
      after < latestAfter ? h("a", { class: "btn", href: href(base, q()), dataset: { focusKey: "latest" } }, "Latest") : null,
    );
    const toggle = h("input", { type: "checkbox", id: "include-ephemeral", checked: ephemeral });
    toggle.addEventListener("change", () => {
      location.hash = href(base, { ephemeral: toggle.checked ? "true" : undefined, after: afterParam });
    });
    const first = events[0]?.offset;
    const last = events.at(-1)?.offset;
    replace(
      region,
      h(
        "div",
        { class: "toolbar" },
        h("p", { class: "range", role: "status" }, events.length ? `Offsets ${first}–${last} of ${page.head}, newest first` : `No events after offset ${after} (head ${page.head}).`),
        h("div", { class: "check" }, toggle, h("label", { for: "include-ephemeral" }, "Include ephemeral events")),
      ),
      events.length ? h("ol", { class: "events", "aria-label": "Events" }, [...events].reverse().map((event) => eventItem(event, { fresh: event.offset === highlight }))) : null,
      pager,
    );
  }
  await load(ctx.query.after);
}

/** The append form: one event; JSON fields parsed here, every other check left to the API, whose error is shown as it is. */
function appendForm(path, onAppended) {
  const type = h("input", { type: "text", name: "type", spellcheck: "false", autocomplete: "off", placeholder: "order.created" });
  const payload = h("textarea", { name: "payload", rows: "5", spellcheck: "false", class: "mono" });
  payload.value = "{}";
  const metadata = h("textarea", { name: "metadata", rows: "2", spellcheck: "false", class: "mono", placeholder: "optional JSON object" });
  const idempotencyKey = h("input", { type: "text", name: "idempotencyKey", spellcheck: "false", autocomplete: "off" });
  const ephemeral = h("input", { type: "checkbox", name: "ephemeral", id: "append-ephemeral" });
  const result = h("div", { class: "append-result", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", dataset: { focusKey: "append" } }, "Append event");
  const form = h(
    "form",
    { class: "card append", novalidate: true, "aria-labelledby": "append-title" },
    h("h2", { id: "append-title" }, "Append an event"),
    h(
      "div",
      { class: "grid-2" },
      field("Type", type, "1–256 bytes, no whitespace"),
      field("Idempotency key (optional)", idempotencyKey, "Re-appending the same key returns the first event"),
    ),
    field("Payload (JSON)", payload),
    field("Metadata (JSON, optional)", metadata),
    h("div", { class: "check" }, ephemeral, h("label", { for: "append-ephemeral" }, "Ephemeral (kept out of range reads and durable delivery)")),
    h("div", { class: "actions" }, submit),
    result,
  );
  const parseJson = (control, name) => {
    control.removeAttribute("aria-invalid");
    const text = control.value.trim();
    if (!text) return { ok: true, value: undefined };
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      control.setAttribute("aria-invalid", "true");
      return { ok: false, error: { code: "invalid_json", message: `${name} is not valid JSON: ${error.message}` } };
    }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { type: type.value };
    for (const [control, name] of [[payload, "payload"], [metadata, "metadata"]]) {
      const parsed = parseJson(control, name);
      if (!parsed.ok) {
        replace(result, errorBox(parsed.error, { title: "Not sent" }));
        control.focus();
        return;
      }
      if (parsed.value !== undefined) body[name] = parsed.value;
    }
    if (idempotencyKey.value) body.idempotencyKey = idempotencyKey.value;
    if (ephemeral.checked) body.ephemeral = true;
    submit.disabled = true;
    try {
      const answer = await api("POST", streamRoute(path, "events"), { body });
      const committed = answer.event;
      replace(
        result,
        notice(answer.deduplicated ? `Already committed at offset ${committed.offset} (deduplicated by its idempotency key).` : `Appended at offset ${committed.offset}.`),
      );
      await onAppended(committed);
    } catch (error) {
      replace(result, errorBox(error, { title: "The API refused the event" }));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

const CLOSE_MEANING = {
  1000: "closed",
  1001: "the server went away",
  1006: "the connection was lost",
  1011: "server error",
  1013: "slow consumer: too far behind",
  4409: "replaced by a newer connection with the same key",
  4410: "the stream was deleted",
};
const RECONNECT_CODES = new Set([1001, 1006, 1011, 1012, 1013]);

async function liveTab(panel, ctx, stream) {
  const path = stream.path;
  const from = ctx.query.after !== undefined ? Math.max(0, Number(ctx.query.after) || 0) : stream.info?.head ?? 0;
  let lastOffset = from;
  let socket = null;
  let received = 0;
  let retries = 0;
  let retryTimer = null;
  let wanted = true;

  const state = h("span", { class: "badge badge-muted", id: "live-state" }, "connecting");
  const counter = h("span", null, "");
  const statusLine = h("p", { class: "live-status", role: "status" }, state, " ", counter);
  const list = h("ol", { class: "events", "aria-label": "Live events, newest first", "aria-live": "polite", "aria-relevant": "additions" });
  const empty = h("p", { class: "empty" }, `Waiting for events after offset ${from}…`);
  const toggle = h("button", { type: "button", class: "btn", dataset: { focusKey: "live-toggle" } }, "Pause");
  const fromInput = h("input", { type: "number", min: "0", step: "1", value: String(from), id: "live-from", class: "narrow" });
  const restart = h("form", { class: "toolbar" }, h("label", { for: "live-from" }, "Replay from after offset"), fromInput, h("button", { type: "submit", class: "btn", dataset: { focusKey: "live-restart" } }, "Restart tail"));

  const setState = (text, kind) => {
    state.textContent = text;
    state.className = `badge badge-${kind}`;
  };
  const describe = () => {
    counter.textContent = `${received} event${received === 1 ? "" : "s"} received; last offset ${lastOffset}.`;
  };

  function connect() {
    clearTimeout(retryTimer);
    wanted = true;
    const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${streamRoute(path, "live")}?after=${lastOffset}`;
    try {
      socket = new WebSocket(url, ["tributary.v1", `bearer.${session.token() ?? ""}`]);
    } catch (error) {
      setState("error", "danger");
      counter.textContent = `Cannot open the live tail: ${error.message}`;
      return;
    }
    const mine = socket;
    setState("connecting", "muted");
    mine.addEventListener("open", () => {
      if (socket !== mine) return;
      retries = 0;
      setState("live", "ok");
      describe();
    });
    mine.addEventListener("message", (message) => {
      if (socket !== mine) return;
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame?.type !== "events" || !Array.isArray(frame.events)) return;
      for (const event of frame.events) {
        if (typeof event?.offset !== "number" || event.offset <= lastOffset) continue;
        lastOffset = event.offset;
        received += 1;
        empty.remove();
        list.prepend(eventItem(event, { fresh: true }));
      }
      while (list.children.length > LIVE_KEEP) list.lastElementChild.remove();
      stream.setHead(frame.head);
      describe();
      // Acknowledge what was processed: unacknowledged bytes over 1 MiB close the socket (slow_consumer).
      mine.send(JSON.stringify({ type: "ack", offset: lastOffset }));
    });
    mine.addEventListener("close", (event) => {
      if (socket !== mine) return;
      socket = null;
      const meaning = CLOSE_MEANING[event.code] ?? "closed";
      if (!wanted) {
        setState("paused", "muted");
        toggle.textContent = "Resume";
        return;
      }
      if (RECONNECT_CODES.has(event.code) && retries < 5 && ctx.alive()) {
        retries += 1;
        setState("reconnecting", "warn");
        counter.textContent = `${meaning} (${event.code}); reconnecting after offset ${lastOffset}…`;
        retryTimer = setTimeout(connect, 500 * 2 ** retries);
        return;
      }
      setState("closed", "danger");
      toggle.textContent = "Resume";
      counter.textContent = `${meaning} (${event.code}${event.reason ? ` ${event.reason}` : ""}). Last offset ${lastOffset}.`;
    });
  }
  function disconnect() {
    wanted = false;
    clearTimeout(retryTimer);
    socket?.close(1000, "paused");
  }

  toggle.addEventListener("click", () => {
    if (socket) {
      disconnect();
    } else {
      toggle.textContent = "Pause";
      connect();
    }
  });
  restart.addEventListener("submit", (event) => {
    event.preventDefault();
    disconnect();
    socket = null;
    lastOffset = Math.max(0, Number(fromInput.value) || 0);
    received = 0;
    list.replaceChildren();
    toggle.textContent = "Pause";
    connect();
  });
  ctx.onCleanup(() => {
    wanted = false;
    clearTimeout(retryTimer);
    const open = socket;
    socket = null;
    open?.close(1000, "page closed");
  });

  panel.append(
    h("div", { class: "toolbar" }, statusLine, toggle),
    restart,
    h("p", { class: "muted small" }, "New events appear at the top as they are committed. Each frame is acknowledged after it is shown."),
    empty,
    list,
  );
  connect();
}
