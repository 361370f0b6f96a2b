// Hosted processors (§9): the project's definitions, one definition with
// its instances (found by reading the catalog's streams), and a stream's
// processor instances with their state and checkpoint.
import { h, replace, time, errorBox, jsonBlock, preview } from "./dom.js";
import { api, streamRoute, processorName } from "./api.js";
import { href } from "./hash.js";

const SCAN_PAGE = 50;
const SCAN_PARALLEL = 6;

export async function processorsPage(root, ctx) {
  ctx.title("Processors");
  const region = h("div", null, h("p", { class: "muted" }, "Loading…"));
  root.append(h("h1", { tabindex: "-1" }, "Processors"), h("p", { class: "muted" }, "Named folds defined once per project and run per stream by a processor-wake subscription."), region);
  let list;
  try {
    list = await api("GET", "/v1/processors");
  } catch (error) {
    replace(region, errorBox(error));
    return;
  }
  const processors = list.processors ?? [];
  replace(
    region,
    processors.length === 0
      ? h("p", { class: "empty" }, "No processors defined. Define one with PUT /v1/processors/{name}.")
      : h(
          "table",
          { class: "table" },
          h("caption", { class: "sr-only" }, "Processor definitions"),
          h("thead", null, h("tr", null, ["Name", "Version", "Kind", "Description", "Defined"].map((label) => h("th", { scope: "col", class: label === "Version" ? "num" : null }, label)))),
          h(
            "tbody",
            null,
            processors.map((p) =>
              h(
                "tr",
                null,
                h("th", { scope: "row" }, h("a", { href: href(`/processors/${encodeURIComponent(p.name)}`) }, p.name)),
                h("td", { class: "num" }, String(p.version)),
                h("td", null, p.kind),
                h("td", null, p.description ?? h("span", { class: "muted" }, "—")),
                h("td", null, time(p.definedAt)),
              ),
            ),
          ),
        ),
  );
}

/** The processor-wake subscriptions of `name` in a stream's reduced state. */
function subscriptionsOf(info, name) {
  const byKey = info?.state?.subscriptions?.outbound?.byKey ?? {};
  return Object.entries(byKey)
    .filter(([, sub]) => processorName(sub) === name)
    .map(([key, sub]) => ({ subscriptionKey: key, ...sub }));
}

export async function processorPage(root, ctx, name) {
  ctx.title(`Processor ${name}`);
  root.append(h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("a", { href: href("/processors") }, "Processors"), h("span", { "aria-hidden": "true" }, " / ")), h("h1", { tabindex: "-1" }, name));
  let definition;
  try {
    definition = await api("GET", `/v1/processors/${encodeURIComponent(name)}`);
  } catch (error) {
    root.append(errorBox(error));
    return;
  }
  const item = (term, value) => h("div", null, h("dt", null, term), h("dd", null, value));
  root.append(
    h("dl", { class: "facts" }, item("Version", String(definition.version)), item("Kind", definition.kind), item("Defined", time(definition.definedAt)), item("Description", definition.description ?? "—")),
    h(
      "div",
      { class: "grid-2" },
      h("section", { class: "card" }, h("h2", null, "Reducer"), h("pre", { class: "json", tabindex: "0", "aria-label": "Reducer expression" }, definition.reducer ?? "")),
      h("section", { class: "card" }, h("h2", null, "Initial state"), jsonBlock(definition.initialState, { label: "Initial state" })),
    ),
  );

  // Instances: streams whose reduced state has a processor-wake subscription of this processor.
  const instancesBody = h("tbody");
  const scanStatus = h("p", { class: "muted small", role: "status" }, "Looking for instances…");
  const more = h("button", { type: "button", class: "btn", hidden: true, dataset: { focusKey: "scan-more" } }, "Scan more streams");
  const table = h(
    "table",
    { class: "table", hidden: true },
    h("caption", { class: "sr-only" }, `Instances of ${name}`),
    h("thead", null, h("tr", null, ["Stream", "Subscription", "Version", "Checkpoint", "Lag", "State"].map((label) => h("th", { scope: "col", class: ["Version", "Checkpoint", "Lag"].includes(label) ? "num" : null }, label)))),
    instancesBody,
  );
  root.append(h("h2", null, "Instances"), scanStatus, h("div", { class: "table-scroll" }, table), more);

  let after = "";
  let scanned = 0;
  let found = 0;
  async function scan() {
    more.hidden = true;
    let page;
    try {
      page = await api("GET", "/v1/streams", { query: { after, limit: SCAN_PAGE } });
    } catch (error) {
      replace(scanStatus, errorBox(error));
      return;
    }
    const streams = page.streams ?? [];
    const queue = [...streams];
    const worker = async () => {
      for (let stream = queue.shift(); stream; stream = queue.shift()) {
        let info;
        try {
          info = await api("GET", streamRoute(stream.path));
        } catch {
          continue;
        }
        for (const sub of subscriptionsOf(info, name)) {
          found += 1;
          const row = instanceRow(stream.path, sub, name);
          instancesBody.append(row);
          table.hidden = false;
        }
      }
    };
    await Promise.all(Array.from({ length: SCAN_PARALLEL }, worker));
    if (!ctx.alive()) return;
    scanned += streams.length;
    after = page.nextAfter ?? "";
    const done = streams.length < SCAN_PAGE || !page.nextAfter;
    scanStatus.textContent = `${found} instance(s) in ${scanned} stream(s) scanned${done ? " (all streams)" : ""}.`;
    more.hidden = done;
  }
  more.addEventListener("click", scan);
  await scan();
}

function instanceRow(path, sub, name) {
  const cells = {
    version: h("td", { class: "num" }, "…"),
    checkpoint: h("td", { class: "num" }, "…"),
    lag: h("td", { class: "num" }, "…"),
    state: h("td", { class: "wrap" }, "…"),
  };
  api("GET", streamRoute(path, `processors/${encodeURIComponent(name)}`))
    .then((instance) => {
      cells.version.textContent = String(instance.version);
      cells.checkpoint.textContent = String(instance.checkpointOffset);
      cells.lag.textContent = String(instance.lag ?? "—");
      replace(cells.state, h("details", null, h("summary", null, h("span", { class: "preview" }, preview(instance.state, 60))), jsonBlock(instance.state, { label: `State of ${name} on ${path}` })));
    })
    .catch((error) => {
      for (const cell of Object.values(cells)) cell.textContent = "—";
      replace(cells.state, h("span", { class: "error-text" }, `${error.code}: ${error.message}`));
    });
  return h(
    "tr",
    null,
    h("th", { scope: "row" }, h("a", { href: href(`/streams${path}/-/processors`), class: "path" }, path)),
    h("td", null, h("code", null, sub.subscriptionKey), sub.deliveryHalted ? [" ", h("span", { class: "badge badge-danger" }, "halted")] : null),
    cells.version,
    cells.checkpoint,
    cells.lag,
    cells.state,
  );
}

export async function streamProcessorsTab(panel, ctx, stream) {
  const path = stream.path;
  const region = h("div", null, h("p", { class: "muted" }, "Loading…"));
  panel.append(region);
  let card;
  try {
    card = await api("GET", streamRoute(path, "subscriptions"));
  } catch (error) {
    replace(region, error.status === 404 ? h("p", { class: "empty" }, "This stream does not exist.") : errorBox(error));
    return;
  }
  const subs = (card.subscriptions ?? []).filter((sub) => processorName(sub));
  if (subs.length === 0) {
    replace(region, h("p", { class: "empty" }, "No processor runs on this stream (no processor-wake subscription)."));
    return;
  }
  const cards = await Promise.all(
    subs.map(async (sub) => {
      const name = processorName(sub);
      let body;
      try {
        const instance = await api("GET", streamRoute(path, `processors/${encodeURIComponent(name)}`));
        const item = (term, value) => h("div", null, h("dt", null, term), h("dd", null, value));
        body = [
          h(
            "dl",
            { class: "facts" },
            item("Version", String(instance.version)),
            item("Checkpoint offset", String(instance.checkpointOffset)),
            item("Lag", String(instance.lag ?? "—")),
            item("Subscription", h("code", null, sub.subscriptionKey)),
            item("Stream id", h("code", { class: "id" }, instance.streamId ?? "—")),
          ),
          h("h4", null, "State"),
          jsonBlock(instance.state, { label: `State of ${name}` }),
        ];
      } catch (error) {
        body = errorBox(error);
      }
      return h(
        "section",
        { class: "card" },
        h(
          "h3",
          null,
          h("a", { href: href(`/processors/${encodeURIComponent(name)}`) }, name),
          sub.deliveryHalted ? [" ", h("span", { class: "badge badge-danger", title: sub.deliveryHalted.error ?? sub.deliveryHalted.reason }, "halted")] : null,
        ),
        sub.deliveryHalted
          ? h("p", { class: "small" }, "Delivery is halted: ", sub.deliveryHalted.error ?? sub.deliveryHalted.reason, ". ", h("a", { href: href(`/streams${path}/-/subscriptions`) }, "Resume it from Subscriptions"), ".")
          : null,
        body,
      );
    }),
  );
  replace(region, cards);
}
