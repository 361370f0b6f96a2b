// A loopback JSON-RPC proxy in front of a real node (anvil) for the EVM
// sources' end-to-end tests (docs/design.md §15, §15.1): scripted failures per
// method, and holding requests until the test releases them.
import { createServer } from "node:http";

/**
 * A loopback JSON-RPC proxy in front of anvil. `plan` steps apply, in
 * order, to the requests whose method matches (others pass through):
 * `{method?, action: "429" | "500" | "hang" | "badhash" | "forget" | "pass"}`
 * ("forget" answers the JSON-RPC error a node gives for a filter it no
 * longer knows, as geth and anvil do). `hold()` parks every request until
 * `release()`.
 */
export async function startProxy(upstream) {
  const plan = [];
  const seen = [];
  let holding = false;
  const parked = [];
  const sockets = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let request = {};
      try {
        request = JSON.parse(raw);
      } catch {}
      const method = request.method ?? "batch";
      if (holding && !(typeof holding === "function" && !holding(method))) {
        await new Promise((resolve) => parked.push(resolve));
      }
      const step = plan[0] && (!plan[0].method || plan[0].method === method) ? plan.shift() : { action: "pass" };
      seen.push({ method, params: request.params, action: step.action, at: Date.now() });
      if (step.action === "429") {
        res.writeHead(429, { "retry-after": "1" });
        return res.end("slow down");
      }
      if (step.action === "500") {
        res.writeHead(500);
        return res.end("boom");
      }
      if (step.action === "hang") return; // never answers; the source's deadline ends it
      if (step.action === "forget") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32000, message: "filter not found" } }));
      }
      let text;
      try {
        const upstreamResponse = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
        text = await upstreamResponse.text();
      } catch (error) {
        res.writeHead(502);
        return res.end(String(error));
      }
      if (step.action === "badhash") {
        const answer = JSON.parse(text);
        if (Array.isArray(answer.result) && answer.result.length > 0) {
          for (const log of answer.result) log.blockHash = "0x" + "ee".repeat(32);
          text = JSON.stringify(answer);
        } else {
          // Only an answer with logs can carry a wrong hash: wait for one.
          plan.unshift(step);
          seen.at(-1).action = "pass";
        }
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(text);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    plan,
    seen,
    /** Parks requests (those whose method `which` accepts, when given) until `release()`. */
    hold(which = true) {
      holding = which;
    },
    release() {
      holding = false;
      for (const resolve of parked.splice(0)) resolve();
    },
    async close() {
      this.release();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
