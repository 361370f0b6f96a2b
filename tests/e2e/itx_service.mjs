// The Worker service that itx-call tests deliver to (docs/design.md §9): a
// WorkerEntrypoint whose RPC method `deliver` records each batch envelope.
// Its behaviour is scripted over HTTP: POST /mode {"mode": "ok" | "throw" |
// "permanent", "times"?: N} (throw N times, then ok); GET /received returns
// every envelope received, in order.
import { WorkerEntrypoint } from "cloudflare:workers";

const received = [];
let mode = { mode: "ok", times: Infinity };

export default class ItxTest extends WorkerEntrypoint {
  async deliver(envelope) {
    if (mode.mode !== "ok" && mode.times > 0) {
      mode.times -= 1;
      received.push({ rejected: mode.mode, envelope });
      if (mode.mode === "permanent") {
        const error = new Error("itx test: refused for good");
        error.retryable = false;
        throw error;
      }
      throw new Error("itx test: try again");
    }
    received.push({ envelope });
    return { ok: true };
  }

  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/mode" && request.method === "POST") {
      const body = await request.json();
      mode = { mode: body.mode, times: body.times ?? Infinity };
      return Response.json(mode);
    }
    if (url.pathname === "/received") return Response.json(received);
    if (url.pathname === "/reset") {
      received.length = 0;
      mode = { mode: "ok", times: Infinity };
      return Response.json({ ok: true });
    }
    return new Response("not found", { status: 404 });
  }
}
