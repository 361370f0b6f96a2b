// The streams list: the project's catalog (GET /v1/streams), filtered by
// path prefix and paged, with each stream's head and lifetime.
import { h, time, errorBox } from "./dom.js";
import { api, streamRoute } from "./api.js";
import { href } from "./hash.js";

const PAGE_SIZE = 25;

export async function streamsPage(root, ctx) {
  ctx.title("Streams");
  const prefix = ctx.query.prefix ?? "";
  const after = ctx.query.after ?? "";
  const input = h("input", { type: "search", name: "prefix", value: prefix, placeholder: "/app/", spellcheck: "false", id: "prefix" });
  const filter = h(
    "form",
    { class: "toolbar", role: "search", "aria-label": "Filter streams" },
    h("label", { for: "prefix" }, "Path prefix"),
    input,
    h("button", { type: "submit", class: "btn", dataset: { focusKey: "filter" } }, "Filter"),
    prefix ? h("a", { href: href("/streams"), class: "btn btn-link", dataset: { focusKey: "clear" } }, "Clear") : null,
  );
  filter.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = href("/streams", { prefix: input.value.trim() });
  });
  const results = h("div", { "aria-live": "polite", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading…"));
  root.append(h("h1", { tabindex: "-1" }, "Streams"), filter, results);

  let page;
  try {
    page = await api("GET", "/v1/streams", { query: { prefix, after, limit: PAGE_SIZE } });
  } catch (error) {
    results.replaceChildren(errorBox(error));
    results.removeAttribute("aria-busy");
    return;
  }
  const streams = page.streams ?? [];
  const rows = streams.map((stream) => {
    const head = h("td", { class: "num" }, "…");
    const count = h("td", { class: "num" }, "…");
    const type = h("td", { dataset: { field: "content-type" } }, "…");
    api("GET", streamRoute(stream.path))
      .then((info) => {
        if (info.streamId !== stream.streamId) {
          head.replaceChildren(h("span", { class: "badge badge-warn", title: `now ${info.streamId}` }, "new lifetime"));
          count.textContent = String(info.eventCount);
          return;
        }
        head.textContent = String(info.head);
        count.textContent = String(info.eventCount);
        // §17: the content type fixed for the lifetime, and whether it is closed.
        type.replaceChildren(
          h("code", null, info.contentType ?? "application/json"),
          info.closed ? h("span", { class: "badge badge-muted", title: `closed at offset ${info.closedAtOffset}` }, "closed") : "",
        );
      })
      .catch((error) => {
        const text = error.status === 404 ? "deleted" : error.code;
        head.replaceChildren(h("span", { class: "badge badge-muted", title: error.message }, text));
        count.textContent = "—";
        type.textContent = "—";
      });
    return h(
      "tr",
      null,
      h("th", { scope: "row" }, h("a", { href: href(`/streams${stream.path}/-/events`), class: "path" }, stream.path)),
      head,
      count,
      type,
      h("td", null, h("code", { class: "id" }, stream.streamId)),
      h("td", null, time(stream.streamCreatedAt)),
    );
  });
  const pager = h(
    "nav",
    { class: "pager", "aria-label": "Pages of streams" },
    after ? h("a", { class: "btn", href: href("/streams", { prefix }), dataset: { focusKey: "first" } }, "First page") : null,
    page.nextAfter && streams.length === PAGE_SIZE
      ? h("a", { class: "btn", href: href("/streams", { prefix, after: page.nextAfter }), dataset: { focusKey: "next" } }, "Next page")
      : null,
  );
  results.removeAttribute("aria-busy");
  results.replaceChildren(
    streams.length === 0
      ? h("p", { class: "empty" }, prefix ? `No stream path starts with ${prefix}.` : "No streams yet: the first append to a path creates it.")
      : h(
          "table",
          { class: "table" },
          h("caption", { class: "sr-only" }, "Streams"),
          h("thead", null, h("tr", null, h("th", { scope: "col" }, "Path"), h("th", { scope: "col", class: "num" }, "Head"), h("th", { scope: "col", class: "num" }, "Events"), h("th", { scope: "col" }, "Content type"), h("th", { scope: "col" }, "Lifetime (stream id)"), h("th", { scope: "col" }, "Created"))),
          h("tbody", null, rows),
        ),
    h("p", { class: "muted small" }, after ? `Streams after ${after}` : "From the first path", prefix ? `, prefix ${prefix}` : "", `: ${streams.length} shown.`),
    pager,
  );
}
