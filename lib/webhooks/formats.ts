// What a webhook endpoint receives, by its `format` (docs/webhooks.md): the body and the headers of one
// delivery. The sender knows only this table; the service's own format is built in, and a protocol adapter
// fills in its own at startup (lib/register-adapters.ts, called by instrumentation.ts before any request or
// send), so the sender never imports an adapter. The table lives on globalThis: Next bundles
// instrumentation and the routes apart, and they must see the same one.
import { OPT_IN_EVENT_TYPES } from "../events/types";
import { globalSingleton } from "../global-singleton";

/** The facts of one delivery a format turns into a body. */
export interface FormattedEvent {
  event_id: string;
  event_type: string;
  /** The event's stored JSON (`data`), as text: spliced into the body without a parse and re-serialise. */
  event_data: string;
  event_created: Date;
  event_livemode: boolean;
  /** The protocol checkout session that paid the event's order (an ACP session), if one did. */
  session_id: string | null;
}

export interface WebhookFormat {
  /**
   * Set: the endpoint takes only these event types, and only of an order a protocol checkout session paid
   * (ACP's order webhooks). Unset: every event its subscription names.
   */
  readonly sessionEventTypes?: readonly string[];
  body(event: FormattedEvent): string;
  /** The headers that carry the signature (`t=<unix>,v1=<hex>`, the SDK's signer) and the event's id. */
  headers(event: FormattedEvent, signature: string, attemptedAt: Date): Record<string, string>;
}

/** The service's own format: `{ id, type, data, created, livemode }`, signed in `x-service-signature`. */
const SERVICE_FORMAT: WebhookFormat = {
  body: (event) =>
    `{"id":${JSON.stringify(event.event_id)},"type":${JSON.stringify(event.event_type)},"data":${event.event_data},"created":${Math.floor(event.event_created.getTime() / 1000)},"livemode":${event.event_livemode}}`,
  headers: (event, signature) => ({ "x-service-signature": signature, "x-service-event-id": event.event_id }),
};

const formats = () => globalSingleton("webhook-formats", () => new Map<string, WebhookFormat>([["service", SERVICE_FORMAT]]));

/** Adds a format to the table (an adapter's, at startup). */
export function registerWebhookFormat(name: string, format: WebhookFormat): void {
  formats().set(name, format);
}

/** The format of an endpoint; one nobody registered is an error (the delivery fails and is retried). */
export function webhookFormat(name: string): WebhookFormat {
  const format = formats().get(name);
  if (!format) throw new Error(`No webhook format "${name}" is registered (lib/webhooks/formats.ts).`);
  return format;
}

/** The fan-out statement's parameters: the formats that take every event, and the session formats' event types. */
export function fanOutFilter(): { openFormats: string[]; sessionEventTypes: string[] } {
  const all = [...formats()];
  return {
    openFormats: all.filter(([, format]) => !format.sessionEventTypes).map(([name]) => name),
    sessionEventTypes: [...new Set(all.flatMap(([, format]) => format.sessionEventTypes ?? []))],
  };
}

/** Whether an endpoint takes an event (the fan-out statement's test, for resends): no subscription takes all but the opt-in types. */
export function takesEvent(ep: { enabledEvents: string[]; format: string }, type: string, sessionId: string | null): boolean {
  const only = webhookFormat(ep.format).sessionEventTypes;
  if (only && !(sessionId !== null && only.includes(type))) return false;
  if (ep.enabledEvents.length === 0) return !(OPT_IN_EVENT_TYPES as readonly string[]).includes(type);
  return ep.enabledEvents.includes(type);
}
