// The API's 422 next to the field it names (`error.details.field`, e.g.
// `receiver.delivery.retry.maxAttempts` or `filters[0].event`). A form's
// controls carry `data-api-field`; an error names the control with the same
// field, else the one with its longest prefix (`filters[0].event` →
// `filters`), else the form's fallback. Text only (never HTML).
import { h } from "./dom.js";

/** `a.b[0].c` → ["a.b[0].c", "a.b[0]", "a.b", "a"]: the field, then each prefix. */
export function fieldPrefixes(field) {
  const prefixes = [];
  let rest = String(field ?? "");
  while (rest) {
    prefixes.push(rest);
    const cut = Math.max(rest.lastIndexOf("."), rest.lastIndexOf("["));
    rest = cut > 0 ? rest.slice(0, cut) : "";
  }
  return prefixes;
}

/** Removes every field error of `form`. */
export function clearFieldErrors(form) {
  for (const message of form.querySelectorAll(".field-error")) message.remove();
  for (const control of form.querySelectorAll("[aria-invalid]")) {
    control.removeAttribute("aria-invalid");
    const describedBy = (control.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && !id.endsWith("-error"));
    if (describedBy.length) control.setAttribute("aria-describedby", describedBy.join(" "));
    else control.removeAttribute("aria-describedby");
  }
}

/** The visible control of `form` an API field names (or `fallback`). */
export function controlFor(form, field, fallback) {
  const controls = [...form.querySelectorAll("[data-api-field]")].filter((control) => !control.closest("[hidden]"));
  for (const prefix of fieldPrefixes(field)) {
    const control = controls.find((c) => c.dataset.apiField === prefix);
    if (control) return control;
  }
  return fallback ?? null;
}

/**
 * Shows `error` (an ApiError) against its field: a message right after the
 * control, `aria-invalid`, and the control focused. Returns the control, or
 * null when the error names no field of this form.
 */
export function showFieldError(form, error, fallback) {
  const field = error?.details?.field;
  const control = field !== undefined || fallback ? controlFor(form, field, fallback) : null;
  if (!control) return null;
  const id = `${control.id || "control"}-error`;
  const message = h(
    "p",
    { class: "field-error", id, role: "alert", dataset: { errorFor: control.dataset.apiField ?? "" } },
    error.code ? h("code", null, error.code) : null,
    " ",
    error.message ?? String(error),
  );
  control.setAttribute("aria-invalid", "true");
  const describedBy = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  control.setAttribute("aria-describedby", [...describedBy, id].join(" "));
  (control.closest(".field") ?? control).after(message);
  const focusable = control.matches("fieldset") ? control.querySelector("input, select, textarea") : control;
  focusable?.focus();
  return control;
}

/** A text field's value as a number when it is an integer, else the text (for the API to judge). */
export function numberOrText(text) {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The entries of `fields` ({name: input}) that are filled in, as an object; undefined when none is. */
export function filledGroup(fields) {
  const group = {};
  for (const [name, control] of Object.entries(fields)) {
    if (control.value.trim() !== "") group[name] = numberOrText(control.value);
  }
  return Object.keys(group).length ? group : undefined;
}
