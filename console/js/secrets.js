// Secrets (docs/design.md §9 "Receiver secrets and headers"): the project's
// write-only values a webhook takes its `url` or a header value from, as
// `{"secret": NAME}`. The page lists names, versions and when each was
// written (`GET /v1/secrets`), writes one (`PUT /v1/secrets/{name}`) and
// deletes one. No stored value is ever shown: the API never answers one,
// and the form's value field is a password field emptied after each write.
import { h, replace, errorBox, notice, confirmDialog, field, time } from "./dom.js";
import { api } from "./api.js";
import { clearFieldErrors, showFieldError } from "./field_errors.js";

const secretRoute = (name) => `/v1/secrets/${encodeURIComponent(name)}`;

export async function secretsPage(root, ctx) {
  ctx.title("Secrets");
  const status = h("div", { "aria-live": "polite" });
  const region = h("div", null, h("p", { class: "muted" }, "Loading…"));
  root.append(
    h("h1", { tabindex: "-1" }, "Secrets"),
    h("p", { class: "muted" }, "Values a webhook takes its URL or a header from, written once and never shown again. A subscription names one as ", h("code", null, '{"secret": "NAME"}'), "."),
    status,
    region,
  );
  // The notice and the table it speaks of change together: "Deleted X." never
  // shows over a table that still lists X.
  const reload = async (message) => {
    let listing;
    try {
      listing = await api("GET", "/v1/secrets");
    } catch (error) {
      if (message) replace(status, notice(message));
      replace(region, errorBox(error));
      return;
    }
    if (!ctx.alive()) return;
    if (message) replace(status, notice(message));
    replace(region, secretsTable(listing.secrets ?? [], { onDeleted: (name) => reload(`Deleted ${name}.`), onError: (error) => replace(status, errorBox(error, { title: "Delete failed" })) }));
  };
  root.append(secretForm({ onSaved: (summary) => reload(`Saved ${summary.name} (version ${summary.version}).`) }));
  await reload();
}

function secretsTable(secrets, { onDeleted, onError }) {
  if (secrets.length === 0) return h("p", { class: "empty" }, "No secrets yet. Write one below.");
  return h(
    "table",
    { class: "table secrets" },
    h("caption", { class: "sr-only" }, "Secrets"),
    h("thead", null, h("tr", null, ["Name", "Version", "Updated", ""].map((label) => h("th", { scope: "col", class: label === "Version" ? "num" : null }, label)))),
    h(
      "tbody",
      null,
      secrets.map((secret) => {
        const remove = h("button", { type: "button", class: "btn btn-danger-outline", dataset: { focusKey: `delete-${secret.name}` }, "aria-label": `Delete ${secret.name}` }, "Delete…");
        remove.addEventListener("click", async () => {
          const ok = await confirmDialog({ title: `Delete ${secret.name}?`, message: "A webhook that names it fails its next send as secret_missing (dead-lettered or halted by its policy).", confirmLabel: "Delete secret", danger: true });
          if (!ok) return;
          try {
            await api("DELETE", secretRoute(secret.name));
            await onDeleted(secret.name);
          } catch (error) {
            onError(error);
          }
        });
        return h("tr", { dataset: { name: secret.name } }, h("th", { scope: "row" }, h("code", null, secret.name)), h("td", { class: "num" }, String(secret.version)), h("td", null, time(secret.updatedAt)), h("td", null, remove));
      }),
    ),
  );
}

/** Writes a secret; `onSaved({name, version})` after the API stored it. The value is never read back. */
function secretForm({ onSaved }) {
  const nameInput = h("input", { type: "text", id: "secret-name", spellcheck: "false", autocomplete: "off", placeholder: "ALERTS_WEBHOOK_URL", dataset: { apiField: "name" } });
  const valueInput = h("input", { type: "password", id: "secret-value", spellcheck: "false", autocomplete: "new-password", dataset: { apiField: "value" } });
  const result = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", dataset: { focusKey: "save-secret" } }, "Write secret");
  const form = h(
    "form",
    { class: "card secret-form", novalidate: true, "aria-labelledby": "secret-form-title" },
    h("h2", { id: "secret-form-title" }, "Write a secret"),
    h("div", { class: "grid-2" }, field("Name", nameInput, "Letters, digits, . _ - (an existing name gets a new version)"), field("Value", valueInput, "Up to 4096 bytes of one line; never shown again")),
    h("div", { class: "actions" }, submit),
    result,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    replace(result);
    const name = nameInput.value.trim();
    submit.disabled = true;
    try {
      const summary = await api("PUT", secretRoute(name), { body: { value: valueInput.value } });
      valueInput.value = "";
      nameInput.value = "";
      await onSaved(summary);
    } catch (error) {
      // A name the route refuses (400, or 405 for none) has no field: it is the name's.
      const fallback = !error.details?.field && [400, 404, 405].includes(error.status) ? nameInput : null;
      if (!showFieldError(form, error, fallback)) replace(result, errorBox(error, { title: "The API refused the secret" }));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
