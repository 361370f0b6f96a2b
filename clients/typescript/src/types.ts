// The API's shapes under short names, all from the generated document types.
import type { components } from "./generated/schema.js";

type Schemas = components["schemas"];

export type Offset = Schemas["Offset"];
export type Event = Schemas["Event"];
export type InputEvent = Schemas["InputEvent"];
export type AppendResult = Schemas["AppendResult"];
export type EventPage = Schemas["EventPage"];
export type PointRead = Schemas["PointRead"];
export type StreamInfo = Schemas["StreamInfo"];
export type Retention = Schemas["Retention"];
/** `events.iterate.com/stream/expiry-configured` and stream info's `expiry` (§17). */
export type ExpiryConfigured = Schemas["ExpiryConfigured"];
/** `events.iterate.com/stream/stream-closed` (§17). */
export type StreamClosed = Schemas["StreamClosed"];
export type SubscriptionConfigured = Schemas["SubscriptionConfigured"];
export type Receiver = Schemas["Receiver"];
export type CopyToStreamReceiver = Schemas["CopyToStreamReceiver"];
export type WebhookPostReceiver = Schemas["WebhookPostReceiver"];
export type ItxCallReceiver = Schemas["ItxCallReceiver"];
export type ProcessorWakeReceiver = Schemas["ProcessorWakeReceiver"];
export type LogReceiver = Schemas["LogReceiver"];
export type CallDelivery = Schemas["CallDelivery"];
export type Retry = Schemas["Retry"];
export type EventsInvalidated = Schemas["EventsInvalidated"];
export type SubscriptionCard = Schemas["SubscriptionCard"];
export type SubscriptionCardEntry = Schemas["SubscriptionCardEntry"];
export type SubscribeFromRequest = Schemas["SubscribeFromRequest"];
export type SubscribeFromResult = Schemas["SubscribeFromResult"];
export type DeadLetter = Schemas["DeadLetter"];
export type DeadLetterPage = Schemas["DeadLetterPage"];
export type ProcessorDefinitionBody = Schemas["ProcessorDefinitionBody"];
export type ProcessorDefinition = Schemas["ProcessorDefinition"];
export type ProcessorPage = Schemas["ProcessorPage"];
export type ProcessorSummary = ProcessorPage["processors"][number];
export type ProcessorState = Schemas["ProcessorState"];
export type SecretRef = Schemas["SecretRef"];
export type SecretSummary = Schemas["SecretSummary"];
export type SourceConfig = Schemas["SourceConfig"];
export type EvmSourceConfig = Schemas["EvmSourceConfig"];
export type EvmMempoolSourceConfig = Schemas["EvmMempoolSourceConfig"];
export type SourceStatus = Schemas["SourceStatus"];
export type SourcePage = Schemas["SourcePage"];
export type SourceSummary = SourcePage["sources"][number];
export type CatalogPage = Schemas["CatalogPage"];
export type CatalogEntry = CatalogPage["streams"][number];
export type WebhookBody = Schemas["WebhookBody"];
export type WebhookEvent = Schemas["WebhookEvent"];
export type WebhookDigest = Schemas["WebhookDigest"];
export type WebhookRetracted = Schemas["WebhookRetracted"];

/** The control event types a client may append (§4); the engine writes the others. */
export const CONTROL = {
  subscriptionConfigured: "events.iterate.com/stream/subscription-configured",
  subscriptionRemoved: "events.iterate.com/stream/subscription-removed",
  subscriptionCursorSet: "events.iterate.com/stream/subscription-cursor-set",
  subscriptionDeliveryResumed: "events.iterate.com/stream/subscription-delivery-resumed",
  eventsInvalidated: "events.iterate.com/stream/events-invalidated",
  retentionConfigured: "events.iterate.com/stream/retention-configured",
} as const;

/** The facts the engine writes (§4, §6, §16): read them, never append them. */
export const FACTS = {
  subscriptionDeliveryHalted: "events.iterate.com/stream/subscription-delivery-halted",
  errorOccurred: "events.iterate.com/stream/error-occurred",
} as const;
