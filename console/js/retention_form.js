// Retention (docs/design.md §16): a small form appending `retention-configured`
// {maxAgeMs?, maxEvents?, maxBytes?, trimPastSubscribers?}; blank limits are
// left out (all blank: keep everything). The API's 422 names the field.
import { h, replace, notice, errorBox, field } from "./dom.js";
import { api, streamRoute, CONTROL } from "./api.js";
import { clearFieldErrors, showFieldError, filledGroup } from "./field_errors.js";

export const RETENTION = `${CONTROL}retention-configured`;

const LIMITS = [
  ["maxAgeMs", "Max age (ms)", "At least 60000 (one minute)"],
  ["maxEvents", "Max events", null],
  ["maxBytes", "Max bytes", "Of retained event rows"],
];

/** A disclosure holding the form, prefilled with the stream's current `retention`. */
export function retentionForm(path, retention, onConfigured) {
  const inputs = Object.fromEntries(
    LIMITS.map(([name]) => [name, h("input", { type: "text", inputmode: "numeric", id: `retention-${name}`, class: "narrow", dataset: { apiField: name }, value: retention?.[name] !== undefined ? String(retention[name]) : "" })]),
  );
  const trimPast = h("input", { type: "checkbox", id: "retention-trimPastSubscribers", dataset: { apiField: "trimPastSubscribers" }, checked: Boolean(retention?.trimPastSubscribers) });
  const result = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", dataset: { focusKey: "retention" } }, "Configure retention");
  const form = h(
    "form",
    { class: "retention-form", novalidate: true, dataset: { apiField: "payload" } },
    h("div", { class: "grid-3" }, LIMITS.map(([name, label, hint]) => field(label, inputs[name], hint ?? undefined))),
    h("div", { class: "check" }, trimPast, h("label", { for: trimPast.id }, "Trim past subscribers (each one passed gets an error-occurred fact)")),
    h("div", { class: "actions" }, submit),
    result,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    replace(result);
    const payload = filledGroup(inputs) ?? {};
    if (trimPast.checked) payload.trimPastSubscribers = true;
    submit.disabled = true;
    try {
      const committed = (await api("POST", streamRoute(path, "events"), { body: { type: RETENTION, payload } })).event;
      replace(result, notice(`Retention configured (event at offset ${committed.offset}).`));
      await onConfigured?.(committed);
    } catch (error) {
      if (!showFieldError(form, error, null)) replace(result, errorBox(error, { title: "The API refused the retention" }));
    } finally {
      submit.disabled = false;
    }
  });
  return h("details", { class: "retention card" }, h("summary", { dataset: { focusKey: "retention-toggle" } }, "Configure retention…"), form);
}
