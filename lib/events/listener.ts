// Wake on commit: ONE Postgres connection per process LISTENs on `aps_events`, which the events table's
// insert trigger NOTIFYs (migration 20261126122319_event_stream_and_wake). Postgres delivers a
// notification only when the inserting transaction commits, so a wake-up always finds the committed row.
// Subscribers (the background webhook sender, open event streams) are called in-process. The same
// connection LISTENs on `aps_mail`, which the email_outbox insert trigger NOTIFYs for every mail queued to
// send (migration 20261127214000_mail_delivery): the background mail sender subscribes to it.
//
// Notifications can be lost (the connection drops, the process starts after the commit): every subscriber
// is also told when the connection (re)opens, so it catches up, and the cron tick stays the backstop.
// Only the long-running server (server.mjs, through instrumentation.ts) starts it; on a serverless host
// nothing listens, and the stream polls instead.
import { DatabaseClient } from "../db";
import { logUnlessDatabaseDown, onDatabaseAvailable } from "../db-availability";
import { requireDatabaseUrl } from "../env";
import { globalSingleton } from "../global-singleton";

export const EVENTS_CHANNEL = "aps_events";
export const MAIL_CHANNEL = "aps_mail";

/** `merchantId:test|live` of a committed event insert, or null: the connection (re)opened, catch up. */
export type EventSignal = { merchantId: string; livemode: boolean } | null;
type Subscriber = (signal: EventSignal) => void;

interface ListenerState {
  subscribers: Set<Subscriber>;
  /** Told of every commit that queued a mail to send, and of every (re)connection. */
  mailSubscribers: Set<() => void>;
  started: boolean;
  connected: boolean;
}

function state(): ListenerState {
  return globalSingleton<ListenerState>("events.listener", () => ({
    subscribers: new Set(),
    mailSubscribers: new Set(),
    started: false,
    connected: false,
  }));
}

/** Whether this process listens (then open streams wait for notifications instead of polling fast). */
export function isListening(): boolean {
  return state().connected;
}

export function subscribeToEvents(subscriber: Subscriber): () => void {
  const s = state();
  s.subscribers.add(subscriber);
  return () => void s.subscribers.delete(subscriber);
}

export function subscribeToMail(subscriber: () => void): () => void {
  const s = state();
  s.mailSubscribers.add(subscriber);
  return () => void s.mailSubscribers.delete(subscriber);
}

function publish(signal: EventSignal, channel = EVENTS_CHANNEL) {
  for (const subscriber of channel === MAIL_CHANNEL ? state().mailSubscribers : state().subscribers) {
    try {
      (subscriber as Subscriber)(signal);
    } catch (err) {
      console.error("event subscriber:", err instanceof Error ? err.message : err);
    }
  }
}

/** Starts the process's listening connection (idempotent); reconnects with back-off when it drops. */
export function startEventListener(): void {
  const s = state();
  if (s.started) return;
  s.started = true;
  let delay = 100;
  let retry: NodeJS.Timeout | null = null;
  // The database is back (its breaker closed): listen again at once rather than at the end of the back-off.
  onDatabaseAvailable(() => {
    if (!retry) return;
    clearTimeout(retry);
    retry = null;
    void connect();
  });
  const connect = async () => {
    retry = null;
    const client = new DatabaseClient({ connectionString: requireDatabaseUrl(), application_name: "aps-event-listener", keepAlive: true });
    let reconnecting = false;
    const reconnect = (err: unknown) => {
      if (reconnecting) return;
      reconnecting = true;
      s.connected = false;
      client.end().catch(() => {});
      // An outage is logged once by the database's breaker; its failed reconnections are not.
      logUnlessDatabaseDown(`event listener (reconnecting in ${delay} ms):`, err);
      retry = setTimeout(connect, delay).unref();
      delay = Math.min(delay * 2, 5_000);
    };
    client.on("error", reconnect);
    client.on("end", () => reconnect(new Error("Connection terminated: the listening connection ended")));
    client.on("notification", (message) => {
      if (message.channel === MAIL_CHANNEL) return publish(null, MAIL_CHANNEL);
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      const cut = message.payload.lastIndexOf(":");
      publish({ merchantId: message.payload.slice(0, cut), livemode: message.payload.slice(cut + 1) === "live" });
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      await client.query(`LISTEN ${MAIL_CHANNEL}`);
      s.connected = true;
      delay = 100;
      publish(null); // anything committed while nobody listened is caught up now
      publish(null, MAIL_CHANNEL);
    } catch (err) {
      reconnect(err);
    }
  };
  void connect();
}
