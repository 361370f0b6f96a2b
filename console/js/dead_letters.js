// Dead letters (§8): listed per subscription, replayed or discarded one at
// a time, or discarded all at once for a subscription; every action asks
// for confirmation first.
import { h, replace, time, errorBox, notice, jsonBlock, preview, confirmDialog, settleFocus } from "./dom.js";
import { api, streamRoute } from "./api.js";
import { href } from "./hash.js";

const PAGE_SIZE = 50;

export async function deadLettersTab(panel, ctx, stream) {
  const path = stream.path;
  const key = ctx.query.subscriptionKey ?? "";
  const after = ctx.query.after ?? "";
  const base = `/streams${path}/-/dead-letters`;
  const actionStatus = h("div", { "aria-live": "polite" });
  const listRegion = h("div", null, h("p", { class: "muted" }, "Loading…"));

  let subscriptions = [];
  try {
    subscriptions = (await api("GET", streamRoute(path, "subscriptions"))).subscriptions ?? [];
  } catch {}
  const select = h(
    "select",
    { id: "dl-subscription", name: "subscriptionKey" },
    h("option", { value: "" }, "All subscriptions"),
    subscriptions.map((sub) => {
      const option = h("option", { value: sub.subscriptionKey }, `${sub.subscriptionKey} (${sub.runtime?.deadLetters ?? 0})`);
      option.selected = sub.subscriptionKey === key;
      return option;
    }),
  );
  if (key && !subscriptions.some((sub) => sub.subscriptionKey === key)) {
    const option = h("option", { value: key }, key);
    option.selected = true;
    select.append(option);
  }
  const filter = h(
    "form",
    { class: "toolbar" },
    h("label", { for: "dl-subscription" }, "Subscription"),
    select,
    h("button", { type: "submit", class: "btn", dataset: { focusKey: "dl-show" } }, "Show"),
  );
  filter.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = href(base, { subscriptionKey: select.value });
  });
  // Replay and discard need `manage` (§2 Scopes); listing needs `read`.
  const mayManage = stream.may?.manage !== false;
  const discardAll = key && mayManage
    ? h("button", { type: "button", class: "btn btn-danger-outline", dataset: { focusKey: "dl-discard-all" } }, `Discard all of ${key}…`)
    : null;
  discardAll?.addEventListener("click", async () => {
    const ok = await confirmDialog({
      title: "Discard all dead letters?",
      message: `Every dead letter of subscription ${key} on ${path} is deleted for good. Nothing is resent.`,
      confirmLabel: "Discard all",
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await api("DELETE", streamRoute(path, "dead-letters"), { query: { subscriptionKey: key } });
      replace(actionStatus, notice(`Discarded ${answer?.discarded ?? 0} dead letter(s) of ${key}.`));
    } catch (error) {
      replace(actionStatus, errorBox(error, { title: "Discard failed" }));
    }
    await load();
    settleFocus(actionStatus);
  });
  panel.append(h("div", { class: "toolbar spread" }, filter, discardAll), actionStatus, listRegion);

  async function replay(letter) {
    const ok = await confirmDialog({
      title: `Replay dead letter ${letter.id}?`,
      message: `Offset ${letter.offset} is sent once more to the current receiver of ${letter.subscriptionKey}, through the same retry path. If it is delivered, the dead letter is removed.`,
      confirmLabel: "Replay",
    });
    if (!ok) return;
    try {
      await api("POST", streamRoute(path, `dead-letters/${encodeURIComponent(letter.id)}/replay`));
      replace(actionStatus, notice(`Dead letter ${letter.id} (offset ${letter.offset}) was delivered and removed.`));
    } catch (error) {
      replace(actionStatus, errorBox(error, { title: `Replay of dead letter ${letter.id} failed` }));
    }
    await load();
    settleFocus(actionStatus);
  }

  async function discard(letter) {
    const ok = await confirmDialog({
      title: `Discard dead letter ${letter.id}?`,
      message: `The dead letter of offset ${letter.offset} (${letter.subscriptionKey}) is deleted for good. Nothing is resent.`,
      confirmLabel: "Discard",
      danger: true,
    });
    if (!ok) return;
    try {
      await api("DELETE", streamRoute(path, `dead-letters/${encodeURIComponent(letter.id)}`));
      replace(actionStatus, notice(`Dead letter ${letter.id} discarded.`));
    } catch (error) {
      replace(actionStatus, errorBox(error, { title: `Discard of dead letter ${letter.id} failed` }));
    }
    await load();
    settleFocus(actionStatus);
  }

  async function load() {
    let page;
    try {
      page = await api("GET", streamRoute(path, "dead-letters"), { query: { subscriptionKey: key, after, limit: PAGE_SIZE } });
    } catch (error) {
      replace(listRegion, errorBox(error));
      return;
    }
    const letters = page.deadLetters ?? [];
    const rows = letters.map((letter) =>
      h(
        "tr",
        { dataset: { id: letter.id } },
        h("th", { scope: "row", class: "num" }, String(letter.id)),
        h("td", null, h("code", null, letter.subscriptionKey)),
        h("td", { class: "num" }, String(letter.offset)),
        h("td", { class: "num" }, String(letter.attempts)),
        h("td", { class: "wrap error-text" }, letter.reason),
        h("td", null, time(letter.createdAt)),
        h("td", { class: "wrap" }, h("details", null, h("summary", null, h("span", { class: "preview" }, preview(letter.payload, 60))), jsonBlock(letter.payload, { label: `Payload of dead letter ${letter.id}` }), h("p", { class: "small muted" }, "Delivery id ", h("code", null, letter.deliveryId)))),
        h(
          "td",
          { class: "actions-cell", hidden: !mayManage },
          h("button", { type: "button", class: "btn btn-small", dataset: { focusKey: `replay:${letter.id}` }, "aria-label": `Replay dead letter ${letter.id}`, onclick: () => replay(letter) }, "Replay"),
          h("button", { type: "button", class: "btn btn-small btn-danger-outline", dataset: { focusKey: `discard:${letter.id}` }, "aria-label": `Discard dead letter ${letter.id}`, onclick: () => discard(letter) }, "Discard"),
        ),
      ),
    );
    replace(
      listRegion,
      letters.length === 0
        ? h("p", { class: "empty" }, key ? `No dead letters for ${key}.` : "No dead letters on this stream.")
        : h(
            "div",
            { class: "table-scroll" },
            h(
              "table",
              { class: "table" },
              h("caption", { class: "sr-only" }, "Dead letters"),
              h("thead", null, h("tr", null, ["Id", "Subscription", "Offset", "Attempts", "Reason", "Created", "Payload", "Actions"].map((label) => h("th", { scope: "col", class: ["Id", "Offset", "Attempts"].includes(label) ? "num" : null }, label)))),
              h("tbody", null, rows),
            ),
          ),
      h(
        "nav",
        { class: "pager", "aria-label": "Pages of dead letters" },
        after ? h("a", { class: "btn", href: href(base, { subscriptionKey: key }), dataset: { focusKey: "dl-first" } }, "First page") : null,
        letters.length === PAGE_SIZE && page.nextAfter != null ? h("a", { class: "btn", href: href(base, { subscriptionKey: key, after: page.nextAfter }), dataset: { focusKey: "dl-next" } }, "Next page") : null,
      ),
    );
  }
  await load();
}
