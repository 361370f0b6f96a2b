// Sources (docs/design.md §15, §15.1; docs/evm-source.md): the project's list
// (`GET /v1/sources`, name order, 25 a page, each one's status read beside
// it), the create / replace form (`PUT /v1/sources/{name}`, kinds `evm` and
// `evm-mempool`; the API's 422 next to the field it names), one source's
// status, and delete.
import { h, replace, errorBox, notice, jsonBlock, confirmDialog, field, time } from "./dom.js";
import { api } from "./api.js";
import { href } from "./hash.js";
import { clearFieldErrors, showFieldError, numberOrText } from "./field_errors.js";

const PAGE_SIZE = 25;
const POLL_MS = 2000;
const KINDS = [
  ["evm", "evm: contract logs from blocks"],
  ["evm-mempool", "evm-mempool: pending transactions"],
];
const FILTER_EXAMPLES = {
  evm: [{ event: "Transfer(address indexed from, address indexed to, uint256 value)" }],
  "evm-mempool": [{ function: "transfer(address to, uint256 amount)" }],
};
// The optional numbers each kind takes (blank: the default).
const NUMBERS = {
  evm: ["startBlock", "confirmations", "finalityDepth", "pollMs"],
  "evm-mempool": ["pollMs"],
};

const sourceRoute = (name) => `/v1/sources/${encodeURIComponent(name)}`;

export async function sourcesPage(root, ctx) {
  ctx.title("Sources");
  const after = ctx.query.after ?? "";
  root.append(h("h1", { tabindex: "-1" }, "Sources"), h("p", { class: "muted" }, "Producers Tributary runs for the project: each polls an Ethereum JSON-RPC endpoint and appends what matches to a stream."));
  const region = h("div", null, h("p", { class: "muted" }, "Loading…"));
  root.append(region, sourceForm({ onSaved: (name) => (location.hash = href(`/sources/${encodeURIComponent(name)}`, { saved: "1" })) }));
  let listing;
  try {
    listing = await api("GET", "/v1/sources", { query: { after, limit: PAGE_SIZE } });
  } catch (error) {
    replace(region, errorBox(error));
    return;
  }
  const sources = listing.sources ?? [];
  const statuses = await Promise.all(sources.map((source) => api("GET", sourceRoute(source.name)).catch((error) => ({ failed: error }))));
  if (!ctx.alive()) return;
  replace(
    region,
    sources.length === 0
      ? h("p", { class: "empty" }, after ? "No more sources." : "No sources yet. Create one below.")
      : h(
          "table",
          { class: "table sources" },
          h("caption", { class: "sr-only" }, "Sources"),
          h("thead", null, h("tr", null, ["Name", "Kind", "Target stream", "Chain", "Status", "Progress", "Last error"].map((label) => h("th", { scope: "col" }, label)))),
          h("tbody", null, sources.map((source, i) => sourceRow(source, statuses[i]))),
        ),
    listing.nextAfter ? h("nav", { class: "pager", "aria-label": "Pages of sources" }, h("a", { class: "btn", href: href("/sources", { after: listing.nextAfter }) }, "Next")) : null,
  );
}

function sourceRow(source, status) {
  const config = source.config ?? {};
  const progress = status?.failed ? "—" : config.kind === "evm-mempool" ? `${status.eventsAppended ?? 0} appended, ${status.txsSeen ?? 0} seen` : `next block ${status.nextBlock ?? "—"}`;
  return h(
    "tr",
    { dataset: { name: source.name } },
    h("th", { scope: "row" }, h("a", { href: href(`/sources/${encodeURIComponent(source.name)}`) }, source.name)),
    h("td", null, config.kind ?? "evm"),
    h("td", null, config.targetStream ? h("a", { href: href(`/streams${config.targetStream}/-/events`) }, config.targetStream) : "—"),
    h("td", { class: "num" }, String(config.chainId ?? "—")),
    h("td", null, status?.failed ? h("span", { class: "error-text" }, status.failed.code) : statusBadge(status.status)),
    h("td", null, progress),
    h("td", { class: "wrap error-text" }, status?.lastError ?? h("span", { class: "muted" }, "—")),
  );
}

function statusBadge(status) {
  const kind = status === "running" ? "ok" : status === "retrying" ? "warn" : "danger";
  return h("span", { class: `badge badge-${kind}` }, status ?? "unknown");
}

export async function sourcePage(root, ctx, name) {
  ctx.title(`${name} · Sources`);
  const status = h("div", { "aria-live": "polite" });
  root.append(h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("a", { href: href("/sources") }, "Sources"), " / "), h("h1", { tabindex: "-1", class: "path" }, name), status);
  if (ctx.query.saved) replace(status, notice(`Saved ${name}.`));
  let source;
  try {
    source = await api("GET", sourceRoute(name));
  } catch (error) {
    root.append(error.status === 404 ? h("p", { class: "empty" }, `No source named ${name}.`) : errorBox(error));
    return;
  }
  const remove = h("button", { type: "button", class: "btn btn-danger-outline", dataset: { focusKey: "delete-source" } }, "Delete source…");
  remove.addEventListener("click", async () => {
    const ok = await confirmDialog({ title: `Delete ${name}?`, message: "The source stops and is forgotten; the events it appended stay in their stream.", confirmLabel: "Delete source", danger: true });
    if (!ok) return;
    try {
      await api("DELETE", sourceRoute(name));
      location.hash = href("/sources");
    } catch (error) {
      replace(status, errorBox(error, { title: "Delete failed" }));
    }
  });
  const statusRegion = h("div", null, statusList(source));
  root.append(
    statusRegion,
    h("div", { class: "actions" }, remove),
    sourceForm({ name, config: source.config, onSaved: () => ctx.redirect(`/sources/${encodeURIComponent(name)}`, { saved: Date.now() }) }),
  );
  // The status moves with every run: read again every POLL_MS while the page is open.
  let timer = null;
  const poll = async () => {
    try {
      const latest = await api("GET", sourceRoute(name));
      if (ctx.alive()) replace(statusRegion, statusList(latest));
    } catch (error) {
      if (ctx.alive()) replace(statusRegion, error.status === 404 ? h("p", { class: "empty" }, `No source named ${name}.`) : errorBox(error));
    }
    if (ctx.alive()) timer = setTimeout(poll, POLL_MS);
  };
  timer = setTimeout(poll, POLL_MS);
  ctx.onCleanup(() => clearTimeout(timer));
}

/** The status fields of a chain source (§15) or a mempool source (§15.1). */
function statusList(source) {
  const item = (term, value, name) => h("div", null, h("dt", null, term), h("dd", { dataset: { field: name } }, value ?? "—"));
  const num = (value) => (value === undefined || value === null ? "—" : String(value));
  const common = [
    item("Status", statusBadge(source.status), "status"),
    item("Kind", source.config?.kind ?? "evm", "kind"),
    item("Target stream", source.config?.targetStream ? h("a", { href: href(`/streams${source.config.targetStream}/-/events`) }, source.config.targetStream) : "—", "target"),
    item("Events appended", num(source.eventsAppended), "eventsAppended"),
    item("Last error", source.lastError ?? "none", "lastError"),
    item("Attempt", num(source.attempt), "attempt"),
    item("Next run", time(source.nextRunAt), "nextRunAt"),
  ];
  const kindFields =
    source.config?.kind === "evm-mempool"
      ? [
          item("Watching since", time(source.watchingSince), "watchingSince"),
          item("Last poll", time(source.lastPollAt), "lastPollAt"),
          ...["txsSeen", "txsQueued", "txsDropped", "txsVanished", "filterResets"].map((name) => item(name, num(source[name]), name)),
        ]
      : [
          item("Next block", num(source.nextBlock), "nextBlock"),
          item("Finalized block", num(source.finalizedBlock), "finalizedBlock"),
          item("Invalidations", num(source.invalidations), "invalidations"),
          item("Reorgs (deep)", `${num(source.reorgs)} (${num(source.deepReorgs)})`, "reorgs"),
        ];
  return h(
    "div",
    null,
    h("dl", { class: "facts" }, common, kindFields),
    h("details", null, h("summary", null, "Status as JSON"), jsonBlock(source, { label: `Status of ${source.name}` })),
  );
}

/** Create (no `name`) or replace a source; `onSaved(name)` after the API stored it. */
function sourceForm({ name, config, onSaved }) {
  const input = (id, apiField, attrs = {}) => h("input", { type: "text", id: `source-${id}`, spellcheck: "false", autocomplete: "off", dataset: { apiField }, ...attrs });
  const nameInput = input("name", "name", { value: name ?? "", readonly: name ? true : null, placeholder: "usdc-transfers" });
  const kind = h("select", { id: "source-kind", dataset: { apiField: "kind" } }, KINDS.map(([value, label]) => h("option", { value }, label)));
  kind.value = config?.kind ?? "evm";
  const rpcUrls = h("textarea", { id: "source-rpcUrls", rows: "2", class: "mono", spellcheck: "false", dataset: { apiField: "rpcUrls" } });
  rpcUrls.value = (config?.rpcUrls ?? []).join("\n");
  const chainId = input("chainId", "chainId", { inputmode: "numeric", class: "narrow", value: config?.chainId !== undefined ? String(config.chainId) : "" });
  const targetStream = input("targetStream", "targetStream", { value: config?.targetStream ?? "", placeholder: "/eth/usdc/transfers" });
  const filters = h("textarea", { id: "source-filters", rows: "4", class: "mono", spellcheck: "false", dataset: { apiField: "filters" } });
  filters.value = JSON.stringify(config?.filters ?? FILTER_EXAMPLES[kind.value], null, 2);
  const numbers = Object.fromEntries(NUMBERS.evm.map((n) => [n, input(n, n, { inputmode: "numeric", class: "narrow", value: config?.[n] !== undefined ? String(config[n]) : "" })]));
  const numberFields = Object.fromEntries(Object.entries(numbers).map(([n, control]) => [n, field(`${n} (optional)`, control)]));
  const showKind = () => {
    for (const [n, wrapper] of Object.entries(numberFields)) wrapper.hidden = !NUMBERS[kind.value].includes(n);
  };
  kind.addEventListener("change", () => {
    if (!config) filters.value = JSON.stringify(FILTER_EXAMPLES[kind.value], null, 2);
    showKind();
  });
  const result = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", dataset: { focusKey: "save-source" } }, name ? "Replace source" : "Create source");
  const form = h(
    "form",
    { class: "card source-form", novalidate: true, "aria-labelledby": "source-form-title" },
    h("h2", { id: "source-form-title" }, name ? "Replace this source" : "Create a source"),
    h("div", { class: "grid-2" }, field("Name", nameInput, "Letters, digits, . _ -"), field("Kind", kind)),
    field("RPC URLs (one per line)", rpcUrls, "Each is asked eth_chainId; https only unless the deployment allows insecure URLs"),
    h("div", { class: "grid-2" }, field("Chain id", chainId), field("Target stream", targetStream)),
    field("Filters (JSON array)", filters, "evm: [{address?, event}]; evm-mempool: [{to?, function?}]"),
    h("div", { class: "grid-3" }, Object.values(numberFields)),
    h("div", { class: "actions" }, submit),
    result,
  );
  showKind();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    replace(result);
    let parsedFilters;
    try {
      parsedFilters = JSON.parse(filters.value);
    } catch (error) {
      showFieldError(form, { code: "invalid_json", message: `filters is not valid JSON: ${error.message}`, details: { field: "filters" } });
      return;
    }
    const body = { kind: kind.value, rpcUrls: rpcUrls.value.split("\n").map((url) => url.trim()).filter(Boolean), chainId: numberOrText(chainId.value), targetStream: targetStream.value.trim(), filters: parsedFilters };
    for (const n of NUMBERS[kind.value]) if (numbers[n].value.trim() !== "") body[n] = numberOrText(numbers[n].value);
    const target = nameInput.value.trim();
    submit.disabled = true;
    try {
      await api("PUT", sourceRoute(target), { body });
      await onSaved(target);
    } catch (error) {
      // A name the route refuses (400, or 405 for none) has no field: it is the name's.
      const fallback = !error.details?.field && [400, 404, 405].includes(error.status) ? nameInput : null;
      if (!showFieldError(form, error, fallback)) replace(result, errorBox(error, { title: "The API refused the source" }));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
