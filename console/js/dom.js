// DOM helpers. Everything the console renders goes through these: text is set
// with textContent / createTextNode and attributes with setAttribute, never
// parsed as HTML, so event payloads and other API data stay inert.

/** `h("a", {href: "#/x", class: "btn", onclick: fn}, "text", child, [more])` */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element (attributes only). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== undefined && value !== null) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function setProps(el, props) {
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name === "value" || name === "checked") el[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
}

/** Appends children: nodes, strings and numbers (as text), arrays; skips null/false. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Replaces `el`'s children, keeping keyboard focus: if the focused element
 * carried `data-focus-key`, the new element with the same key gets focus.
 */
export function replace(el, ...children) {
  const key = document.activeElement?.dataset?.focusKey;
  const hadFocus = key !== undefined && el.contains(document.activeElement);
  el.replaceChildren();
  append(el, children);
  if (hadFocus) focusKey(el, key);
}

export function focusKey(root, key) {
  const target = [...root.querySelectorAll("[data-focus-key]")].find((n) => n.dataset.focusKey === key);
  if (target && !target.disabled) {
    target.focus();
    return true;
  }
  return false;
}

const JSON_TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Pretty JSON as a <pre>, lightly highlighted with spans (text nodes only). */
export function jsonBlock(value, { label } = {}) {
  const text = JSON.stringify(value, null, 2) ?? "undefined";
  const pre = h("pre", { class: "json", tabindex: "0", "aria-label": label });
  let last = 0;
  for (const match of text.matchAll(JSON_TOKEN)) {
    if (match.index > last) pre.append(text.slice(last, match.index));
    const cls = match[1] ? (match[2] ? "k" : "s") : match[3] ? "b" : "n";
    pre.append(h("span", { class: `j-${cls}` }, match[1] ?? match[0]));
    if (match[2]) pre.append(match[2]);
    last = match.index + match[0].length;
  }
  if (last < text.length) pre.append(text.slice(last));
  return pre;
}

/** One line of JSON, cut to `max` characters. */
export function preview(value, max = 120) {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An error box for an ApiError (or any error): code, status, message, details. */
export function errorBox(error, { title } = {}) {
  const details = error?.details;
  const hasDetails = details && typeof details === "object" && Object.keys(details).length > 0;
  return h(
    "div",
    { class: "error", role: "alert", tabindex: "-1" },
    h("p", { class: "error-title" }, title ?? "Request failed", error?.status ? ` (HTTP ${error.status})` : ""),
    h("p", null, error?.code ? h("code", { class: "error-code" }, error.code) : null, " ", error?.message ?? String(error)),
    hasDetails ? jsonBlock(details, { label: "error details" }) : null,
  );
}

export function notice(text, kind = "ok") {
  return h("p", { class: `notice notice-${kind}`, role: "status", tabindex: "-1" }, text);
}

/** After a re-render removed the focused element: focus `fallback` (or its first focusable child) instead. */
export function settleFocus(fallback) {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const target = fallback?.querySelector?.("[tabindex], button, a[href]") ?? fallback;
  target?.focus?.();
}

/** `2026-12-01 03:56:07 UTC` from an RFC 3339 string, with the original as title. */
export function time(iso) {
  if (!iso) return h("span", { class: "muted" }, "—");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h("span", null, iso);
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return h("time", { datetime: iso, title: `${iso} (${ago(date.getTime())})` }, text);
}

/** "3 s ago", "in 2 min" relative to now. */
export function ago(ms, now = Date.now()) {
  const delta = ms - now;
  const abs = Math.abs(delta);
  const unit =
    abs < 1000 ? "now" : abs < 60_000 ? `${Math.round(abs / 1000)} s` : abs < 3_600_000 ? `${Math.round(abs / 60_000)} min` : abs < 86_400_000 ? `${Math.round(abs / 3_600_000)} h` : `${Math.round(abs / 86_400_000)} d`;
  if (unit === "now") return "now";
  return delta < 0 ? `${unit} ago` : `in ${unit}`;
}

export function bytes(n) {
  if (typeof n !== "number") return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). Resolves true on confirm. */
export function confirmDialog({ title, message, confirmLabel = "Confirm", danger = false }) {
  return new Promise((resolve) => {
    const returnFocus = document.activeElement;
    const cancel = h("button", { type: "button", class: "btn" }, "Cancel");
    const ok = h("button", { type: "button", class: danger ? "btn btn-danger" : "btn btn-primary" }, confirmLabel);
    const dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "confirm-title" },
      h("h2", { id: "confirm-title" }, title),
      h("p", null, message),
      h("div", { class: "actions" }, cancel, ok),
    );
    cancel.addEventListener("click", () => dialog.close("cancel"));
    ok.addEventListener("click", () => dialog.close("confirm"));
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (returnFocus?.isConnected) returnFocus.focus();
      resolve(dialog.returnValue === "confirm");
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** A labelled form field: `field("Type", input)`. */
export function field(label, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  const hintEl = hint ? h("span", { class: "hint", id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hintEl);
}
