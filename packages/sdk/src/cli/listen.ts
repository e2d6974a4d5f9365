#!/usr/bin/env node
// agent-payments-listen --api-key <key> [--forward-to <url>] [--events <types>] [--base-url <url>]
// (the SDK package's bin; in this repository `npm run listen -- ...`)
//
// Like `stripe listen`: receives the account's events as they happen over GET /v1/events/stream
// (server-sent events), prints one line per event, and with --forward-to POSTs each one to a local URL
// signed exactly like a webhook delivery (body { id, type, data, created, livemode }, headers
// x-service-signature and x-service-event-id) with a secret of this session (`whsec_...`, printed at
// start): verify it with the SDK's verifyWebhook() or Stripe's webhooks.constructEvent(). A dropped
// connection is resumed with Last-Event-ID, so no event is missed; an event the server sends again after
// a resume (at least once) is printed and forwarded once.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhookPayload } from "../webhooks";

const { values } = parseArgs({
  options: {
    "api-key": { type: "string" },
    "forward-to": { type: "string" },
    events: { type: "string" },
    "base-url": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

const USAGE =
  "usage: agent-payments-listen --api-key <sk_test_...> [--forward-to http://localhost:PORT/path] [--events order.paid,payment_intent.*] [--base-url http://localhost:3000]";
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const apiKey = values["api-key"] ?? process.env.APS_API_KEY;
if (!apiKey) {
  console.error(USAGE);
  process.exit(2);
}
const baseUrl = (values["base-url"] ?? process.env.APS_BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const forwardTo = values["forward-to"];
const secret = `whsec_${randomBytes(24).toString("base64url")}`;

interface StreamedEvent {
  id: string;
  type: string;
  data: unknown;
  livemode: boolean;
  createdAt: string;
}

/** Ids already handled (bounded): a replay after a resume may repeat recent events. */
const seen = new Set<string>();
let lastEventId: string | undefined;
let stopping = false;
let current: AbortController | undefined;

const stamp = () => new Date().toISOString().replace("T", " ").slice(0, 19);

async function forward(event: StreamedEvent): Promise<void> {
  if (!forwardTo) return;
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    data: event.data,
    created: Math.floor(Date.parse(event.createdAt) / 1000),
    livemode: event.livemode,
  });
  const signature = signWebhookPayload(secret, body, Math.floor(Date.now() / 1000));
  try {
    const res = await fetch(forwardTo, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signature,
        [EVENT_ID_HEADER]: event.id,
        "user-agent": "AgentPaymentsService-Listen/1.0",
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    console.log(`${stamp()}  <-- [${res.status}] POST ${forwardTo} [${event.id}]`);
  } catch (err) {
    console.log(`${stamp()}  <-- [ERR] POST ${forwardTo} [${event.id}]: ${err instanceof Error ? err.message : err}`);
  }
}

async function handle(id: string | undefined, data: string): Promise<void> {
  let event: StreamedEvent;
  try {
    event = JSON.parse(data);
  } catch {
    return;
  }
  if (id) lastEventId = id;
  if (seen.has(event.id)) return;
  seen.add(event.id);
  if (seen.size > 10_000) seen.delete(seen.values().next().value!);
  console.log(`${stamp()}  --> ${event.type} [${event.id}]`);
  await forward(event);
}

/** One connection: resolves when it ends (the server closed it, or it failed). Throws on a 4xx. */
async function connect(): Promise<void> {
  current = new AbortController();
  const url = new URL("/v1/events/stream", baseUrl);
  if (values.events) url.searchParams.set("types", values.events);
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${apiKey}`, accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    signal: current.signal,
  });
  if (res.status >= 400 && res.status < 500 && res.status !== 429) {
    const text = await res.text();
    throw Object.assign(new Error(`the service refused the stream: ${res.status} ${text}`), { fatal: true });
  }
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  // Events are handled one after another (forwarded in order) while the stream keeps buffering.
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) id = line.slice(3).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) await handle(id, data.join("\n"));
    }
  }
}

console.log(`Ready! Listening for events at ${baseUrl}${values.events ? ` (types: ${values.events})` : ""}.`);
console.log(`Your webhook signing secret is ${secret}${forwardTo ? ` (forwarding to ${forwardTo})` : ""}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopping = true;
    current?.abort();
    process.exit(0);
  });
}

let delay = 250;
while (!stopping) {
  const startedAt = Date.now();
  try {
    await connect();
    delay = 250; // the server ended the stream (e.g. a serverless time limit): resume at once
  } catch (err) {
    if ((err as { fatal?: boolean }).fatal) {
      console.error((err as Error).message);
      process.exit(1);
    }
    if (!stopping) console.log(`${stamp()}  connection lost (${err instanceof Error ? err.message : err}); reconnecting`);
  }
  if (stopping) break;
  if (Date.now() - startedAt > 5_000) delay = 250; // it had been up a while: reconnect at once
  await new Promise((resolve) => setTimeout(resolve, delay));
  delay = Math.min(delay * 2, 5_000);
}
