// A real HTTP webhook receiver for the webhook-post end-to-end tests
// (docs/design.md §9). It listens on 127.0.0.1 (a port the OS picks), records
// every request it gets — headers, raw and parsed body, arrival time — and
// verifies EVERY delivery's Standard Webhooks signature with the
// `standardwebhooks` npm package, using the per-path secret the test fetched
// from the signing-secret route. A delivery that arrives before its path's
// secret is registered is verified the moment the secret is registered.
//
// Each path is scripted with a queue of responses; the last one repeats:
//   {status, headers?, body?}          respond with that status (headers may be a
//                                      function, evaluated when the response is sent)
//   {redirect: "/other", status?}      3xx (302 by default) to another receiver path
//   {hang: true}                       never respond (until the receiver closes)
//   {gate: "name", status?}            hold the request until release("name"), then respond
//   {trickle: true}                    send 200 headers at once, then one body byte every
//                                      500 ms, never ending (until the receiver closes)
//   (record) => spec                   a function: called with each request's record
//                                      (parsed body included), answers with the spec it
//                                      returns — to script by event rather than by arrival
// Unscripted paths answer 200. Memory is bounded: at most MAX_RECORDS
// requests and MAX_BODY bytes per request are kept. Each record names the
// connection it came over (`connection`: 1, 2, … in the order they opened).
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const MAX_RECORDS = 10_000;
const MAX_BODY = 1024 * 1024;

export async function startReceiver() {
  /** @type {Map<string, object[]>} path → scripted responses (last one sticky) */
  const scripts = new Map();
  /** @type {Map<string, string>} path → whsec_ secret */
  const secrets = new Map();
  /** Every recorded request, in arrival order. */
  const records = [];
  /** Responses held open ({hang} and {gate}). */
  const held = new Set();
  /** Timers of {trickle} responses, cleared when their response closes. */
  const trickles = new Set();
  /** gate name → {released: bool, waiters: [fn]} */
  const gates = new Map();

  /** socket → its number, in the order connections opened. */
  const connections = new WeakMap();
  let opened = 0;

  const gate = (name) => {
    if (!gates.has(name)) gates.set(name, { released: false, waiters: [] });
    return gates.get(name);
  };

  const verify = (record) => {
    const secret = secrets.get(record.path);
    if (secret === undefined) return;
    try {
      new Webhook(secret).verify(record.rawBody, record.headers);
      record.verified = true;
      record.verifyError = null;
    } catch (error) {
      record.verified = false;
      record.verifyError = String(error?.message ?? error);
    }
  };

  const nextResponse = (path, record) => {
    const script = scripts.get(path);
    if (!script || script.length === 0) return { status: 200 };
    const next = script.length > 1 ? script.shift() : script[0];
    return typeof next === "function" ? next(record) : next;
  };

  const respond = (res, spec) => {
    if (res.writableEnded || res.destroyed) return;
    held.delete(res);
    const headers = typeof spec.headers === "function" ? spec.headers() : spec.headers;
    res.writeHead(spec.status ?? 200, { "content-type": "text/plain", ...(headers ?? {}) });
    res.end(spec.body ?? (spec.status && spec.status >= 300 ? `status ${spec.status}` : "ok"));
  };

  const server = createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => {
      const url = new URL(req.url, "http://receiver");
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body = null;
      try {
        body = JSON.parse(rawBody);
      } catch {}
      const record = {
        method: req.method,
        path: url.pathname,
        headers: { ...req.headers },
        rawBody,
        body,
        at: Date.now(),
        connection: connections.get(req.socket),
        verified: null,
        verifyError: null,
      };
      if (records.length < MAX_RECORDS) records.push(record);
      verify(record);

      const spec = nextResponse(url.pathname, record);
      record.answeredWith = spec;
      if (spec.hang) {
        held.add(res);
        return;
      }
      if (spec.trickle) {
        held.add(res);
        res.writeHead(200, { "content-type": "text/plain" });
        res.write(".");
        const timer = setInterval(() => {
          if (res.writableEnded || res.destroyed) return;
          res.write(".");
        }, 500);
        trickles.add(timer);
        res.on("close", () => {
          clearInterval(timer);
          trickles.delete(timer);
          held.delete(res);
        });
        return;
      }
      if (spec.redirect !== undefined) {
        respond(res, { status: spec.status ?? 302, headers: { location: `${base}${spec.redirect}` }, body: "moved" });
        return;
      }
      if (spec.gate !== undefined) {
        const g = gate(spec.gate);
        if (g.released) return respond(res, spec);
        held.add(res);
        g.waiters.push(() => respond(res, spec));
        return;
      }
      respond(res, spec);
    });
  });
  server.on("connection", (socket) => connections.set(socket, ++opened));
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const base = `http://127.0.0.1:${server.address().port}`;

  return {
    base,
    /** The absolute URL of a receiver path. */
    url: (path) => `${base}${path}`,
    /** Scripts `path`'s answers: each spec answers one request; the last repeats. */
    script(path, ...specs) {
      scripts.set(path, specs.length ? specs : [{ status: 200 }]);
    },
    /** Registers `path`'s secret and verifies what already arrived there. */
    setSecret(path, secret) {
      secrets.set(path, secret);
      for (const record of records) if (record.path === path) verify(record);
    },
    /** Lets every request held at gate `name` (and later ones) answer. */
    release(name) {
      const g = gate(name);
      g.released = true;
      for (const waiter of g.waiters.splice(0)) waiter();
    },
    /** Requests recorded on `path`, in arrival order. */
    received: (path) => records.filter((record) => record.path === path),
    /** Every request recorded. */
    all: () => [...records],
    async close() {
      for (const timer of trickles) clearInterval(timer);
      trickles.clear();
      for (const res of held) res.destroy();
      held.clear();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `records` with one entry per `webhook-id` (the first to arrive), order kept. */
export function dedupeById(records) {
  const seen = new Set();
  return records.filter((record) => {
    const id = record.headers["webhook-id"];
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
