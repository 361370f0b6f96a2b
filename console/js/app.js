// The console's shell: hash routes, the header, sign-in, and page lifecycle
// (each page gets `onCleanup` for its sockets and timers).
import { h, append, replace, focusKey, errorBox } from "./dom.js";
import { api, session } from "./api.js";
import { href, parseHash } from "./hash.js";
import { streamsPage } from "./streams.js";
import { streamPage, STREAM_TABS } from "./stream.js";
import { processorsPage, processorPage } from "./processors.js";
import { subscriptionPage } from "./subscription_view.js";
import { sourcesPage, sourcePage } from "./sources.js";
import { secretsPage } from "./secrets.js";

const tabPattern = STREAM_TABS.map((tab) => tab.id).join("|");
const routes = [
  { pattern: /^\/signin$/, nav: null, render: signInPage },
  { pattern: /^\/streams\/?$/, nav: "streams", render: streamsPage },
  {
    pattern: new RegExp(`^/streams(/.+?)/-/(${tabPattern})$`),
    nav: "streams",
    render: (root, ctx) => streamPage(root, ctx, ctx.params[0], ctx.params[1]),
  },
  { pattern: /^\/streams(\/.+?)\/-\/subscription$/, nav: "streams", render: (root, ctx) => subscriptionPage(root, ctx, ctx.params[0]) },
  { pattern: /^\/streams(\/.+)$/, nav: "streams", render: (root, ctx) => ctx.redirect(`/streams${ctx.params[0]}/-/events`) },
  { pattern: /^\/processors\/?$/, nav: "processors", render: processorsPage },
  { pattern: /^\/processors\/([^/]+)$/, nav: "processors", render: (root, ctx) => processorPage(root, ctx, decodeURIComponent(ctx.params[0])) },
  { pattern: /^\/sources\/?$/, nav: "sources", render: sourcesPage },
  { pattern: /^\/sources\/([^/]+)$/, nav: "sources", render: (root, ctx) => sourcePage(root, ctx, decodeURIComponent(ctx.params[0])) },
  { pattern: /^\/secrets\/?$/, nav: "secrets", render: secretsPage },
];

const main = document.getElementById("main");
const signOutButton = document.getElementById("sign-out");
const mainNav = document.querySelector("header nav");
let page = { cleanups: [] };

async function render() {
  for (const cleanup of page.cleanups.splice(0)) {
    try {
      cleanup();
    } catch {}
  }
  const focusedKey = document.activeElement?.dataset?.focusKey;
  const { path, query } = parseHash();
  const signedIn = Boolean(session.token());
  signOutButton.hidden = !signedIn;
  mainNav.hidden = !signedIn;
  if (!signedIn && path !== "/signin") {
    location.replace(href("/signin", { next: location.hash || undefined }));
    return;
  }
  const route = routes.find((r) => r.pattern.test(path));
  for (const link of document.querySelectorAll("header nav a")) {
    if (route && link.dataset.nav === route.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const current = { cleanups: [] };
  page = current;
  const root = h("div", { class: "page", dataset: { hash: location.hash } });
  main.replaceChildren(root);
  // Busy until the page has rendered: assistive technology (and the e2e tests) wait for it to clear.
  main.setAttribute("aria-busy", "true");
  const ctx = {
    query,
    params: route ? path.match(route.pattern).slice(1) : [],
    onCleanup: (fn) => current.cleanups.push(fn),
    alive: () => page === current,
    redirect: (to, q) => location.replace(href(to, q)),
    title: (text) => {
      document.title = `${text} · Tributary console`;
    },
  };
  if (!route) {
    ctx.title("Not found");
    root.append(h("h1", { tabindex: "-1" }, "Not found"), h("p", null, "No console page at ", h("code", null, path), ". ", h("a", { href: "#/streams" }, "Go to streams"), "."));
  } else {
    try {
      await route.render(root, ctx);
    } catch (error) {
      root.append(errorBox(error));
    }
  }
  if (!ctx.alive()) return;
  main.removeAttribute("aria-busy");
  // A control the user focused while the page loaded keeps its focus (typing is never cut off midway).
  if (document.activeElement !== root && root.contains(document.activeElement)) return;
  if (focusedKey && focusKey(root, focusedKey)) return;
  (ctx.autofocus ?? root.querySelector("h1"))?.focus({ preventScroll: true });
}

function signInPage(root, ctx) {
  ctx.title("Sign in");
  const input = h("input", { type: "password", name: "token", autocomplete: "off", spellcheck: "false", required: true });
  const status = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card signin", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "token" }, "API token"), input, h("span", { class: "hint", id: "token-hint" }, "The bearer token of your project. It is kept in this tab's session storage until you sign out.")),
    h("button", { type: "submit", class: "btn btn-primary" }, "Sign in"),
    status,
  );
  input.id = "token";
  input.setAttribute("aria-describedby", "token-hint");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) {
      replace(status, errorBox({ code: "missing_token", message: "Enter a token." }, { title: "Cannot sign in" }));
      input.focus();
      return;
    }
    try {
      // Any valid token signs in, whatever its scopes (§2): GET /v1/token.
      await api("GET", "/v1/token", { token });
    } catch (error) {
      replace(status, errorBox(error, { title: "Sign-in refused" }));
      input.focus();
      return;
    }
    session.signIn(token);
    const next = ctx.query.next;
    location.hash = next && next.startsWith("#/") && !next.startsWith("#/signin") ? next : "#/streams";
  });
  append(root, [
    h("h1", { tabindex: "-1" }, "Sign in"),
    ctx.query.reason ? h("p", { class: "notice notice-warn", role: "status" }, ctx.query.reason) : null,
    form,
  ]);
  ctx.autofocus = input;
}

document.getElementById("skip-link").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

signOutButton.addEventListener("click", () => {
  session.signOut();
  location.hash = "#/signin";
});

window.addEventListener("tributary:unauthorized", () => {
  location.hash = href("/signin", { reason: "The API refused the token (401): sign in again." });
});
window.addEventListener("hashchange", render);
render();
