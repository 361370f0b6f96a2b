// A webhook receiver for a Tributary `webhook-post` subscription (docs/design.md
// §9), with the TypeScript client's `verifyWebhook`. It verifies every
// delivery's Standard Webhooks signature before trusting a byte of it,
// answers 401 to anything that does not verify, and deduplicates on
// `webhook-id` (delivery is at least once: a retry carries the same id).
//
//   WEBHOOK_SECRET=whsec_… PORT=8788 node examples/webhook-receiver.ts
//
// Node runs this TypeScript by stripping its types, by default from Node
// 22.18 (the repository's Node 22 is on PATH after `source scripts/env.sh`;
// an older Node 22 needs `--experimental-strip-types`). It imports the
// client from clients/typescript/dist: `bash scripts/build-client` first. The secret is the
// subscription's: `await client.subscriptions.signingSecret(path, key)`.
// Each delivery is printed as one JSON line.
import { createServer, type IncomingMessage } from "node:http";
import { TributaryError, verifyWebhook, type WebhookBody } from "../clients/typescript/dist/index.js";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error("set WEBHOOK_SECRET to the subscription's whsec_ secret");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8788);
/** Bodies are at most 1 MiB (§12); anything larger is not from Tributary. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Delivery ids already handled, oldest first (bounded). */
const seen = new Set<string>();
const MAX_SEEN = 10_000;

function handle(body: WebhookBody): { offsets: number[] } {
  switch (body.type) {
    case "event":
      return { offsets: [body.event.offset] };
    case "digest":
      return { offsets: body.events.map((event) => event.offset) };
    case "retracted":
      // An earlier delivery is withdrawn (§13): undo what it did.
      return { offsets: [body.offset] };
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const server = createServer(async (request, response) => {
  if (request.method !== "POST") {
    response.writeHead(405).end();
    return;
  }
  const raw = await readBody(request);
  if (raw === undefined) {
    response.writeHead(413).end();
    request.destroy();
    return;
  }
  let body: WebhookBody;
  try {
    body = verifyWebhook(secret, request.headers, raw);
  } catch (error) {
    const code = error instanceof TributaryError ? error.code : "internal";
    console.log(JSON.stringify({ rejected: code }));
    // 4xx is a permanent failure for Tributary (§9): a forged request is never retried into success.
    response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: code }));
    return;
  }
  // Verified, so the header is present and single. (A retraction's body
  // `deliveryId` names the delivery it retracts; its own id is the header.)
  const webhookId = String(request.headers["webhook-id"]);
  const duplicate = seen.has(webhookId);
  if (!duplicate) {
    seen.add(webhookId);
    if (seen.size > MAX_SEEN) seen.delete(seen.values().next().value as string);
  }
  const { offsets } = handle(body);
  console.log(JSON.stringify({ webhookId, type: body.type, subscriptionKey: body.subscriptionKey, offsets, duplicate }));
  response.writeHead(204).end();
});

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  console.log(`listening on http://127.0.0.1:${bound}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
