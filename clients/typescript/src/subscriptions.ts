// Subscriptions (docs/design.md §4, §5): configured by appending control events
// to the source stream; inspected on its debug card (§11).
import type { Http } from "./http.js";
import { key, type Appended, type Streams } from "./streams.js";
import type { SubscribeFromRequest, SubscribeFromResult, SubscriptionCard, SubscriptionConfigured } from "./types.js";
import { CONTROL } from "./types.js";

export class Subscriptions {
  constructor(
    private readonly http: Http,
    private readonly streams: Streams,
  ) {}

  /**
   * Configures (or replaces) a subscription on the source stream `path`:
   * appends `subscription-configured` with its receiver (`copy-to-stream`,
   * `webhook-post`, `itx-call`, `processor-wake`, `log`) and policies.
   * Invalid configuration is 422 naming `details.field`; nothing commits.
   */
  async configure(path: string, configuration: SubscriptionConfigured, idempotencyKey?: string): Promise<Appended> {
    return this.streams.append(path, { type: CONTROL.subscriptionConfigured, payload: configuration, ...key(idempotencyKey) });
  }

  /** Appends `subscription-removed`. */
  async remove(path: string, subscriptionKey: string, idempotencyKey?: string): Promise<Appended> {
    return this.streams.append(path, { type: CONTROL.subscriptionRemoved, payload: { subscriptionKey }, ...key(idempotencyKey) });
  }

  /** Appends `subscription-cursor-set`: deliver after `afterOffset` (at most the head). */
  async setCursor(path: string, subscriptionKey: string, afterOffset: number, idempotencyKey?: string): Promise<Appended> {
    return this.streams.append(path, {
      type: CONTROL.subscriptionCursorSet,
      payload: { subscriptionKey, afterOffset },
      ...key(idempotencyKey),
    });
  }

  /** Appends `subscription-delivery-resumed`: clears a halt (409 `subscription_not_halted` otherwise). */
  async resume(path: string, subscriptionKey: string, idempotencyKey?: string): Promise<Appended> {
    return this.streams.append(path, {
      type: CONTROL.subscriptionDeliveryResumed,
      payload: { subscriptionKey },
      ...key(idempotencyKey),
    });
  }

  /** The debug card (§11): every subscription's configuration and runtime, inbound fences paged, open connections. */
  async card(path: string, options: { inboundAfter?: string; inboundLimit?: number } = {}): Promise<SubscriptionCard> {
    return (await this.http.call("getSubscriptionCard", { path: { path }, query: options })).body;
  }

  /** The `whsec_` Standard Webhooks secret of a `webhook-post` subscription (§9). */
  async signingSecret(path: string, subscriptionKey: string): Promise<string> {
    return (await this.http.call("getSigningSecret", { path: { path, subscriptionKey } })).body.secret;
  }

  /** Subscribes the receiving stream `path` to `request.sourcePath` (a `copy-to-stream` on the source, §5). */
  async subscribeFrom(path: string, request: SubscribeFromRequest): Promise<SubscribeFromResult> {
    return (await this.http.call("subscribeFrom", { path: { path }, body: request })).body;
  }
}
