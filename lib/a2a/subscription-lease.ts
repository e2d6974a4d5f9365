// A SubscribeToTask stream's slot among its key's open streams (lib/events/stream-leases.ts): EVENT_STREAM_MAX_PER_KEY
// and EVENT_STREAM_MAX_PER_MERCHANT count event streams and A2A subscriptions together. A subscription reads its
// task's row every half second (task-follow.ts), so without a cap one key could make any number of them read at
// once. Its lease lasts as long as a subscription may (MAX_FOLLOW_MS, plus a margin): nothing renews it, and a
// process that dies leaves it to expire.
import { claimStreamLease, releaseStreamLease } from "../events/stream-leases";
import type { Caller } from "../scope";
import { MAX_FOLLOW_MS } from "./task-follow";

const SUBSCRIPTION = { streams: "open streams (event streams and A2A task subscriptions together)", seconds: MAX_FOLLOW_MS / 1000 + 60 };

/** JSON-RPC's SubscribeToTask (v1.0) and tasks/resubscribe (v0.3). */
export const SUBSCRIBE_METHODS = new Set(["SubscribeToTask", "tasks/resubscribe"]);

/**
 * Takes the caller's slot (or throws TooManyStreamsError), then opens the subscription: a stream gives the slot back
 * when it ends (read to its end, failed, or closed by the client), anything else at once.
 */
export async function withSubscriptionSlot<R>(caller: Caller, open: () => Promise<R>): Promise<R> {
  const leaseId = await claimStreamLease(caller, SUBSCRIPTION);
  const release = () =>
    releaseStreamLease(leaseId).catch((err) => console.error("a2a subscription lease:", err instanceof Error ? err.message : err));
  let opened: R;
  try {
    opened = await open();
  } catch (err) {
    await release();
    throw err;
  }
  if (!isStream(opened)) {
    await release();
    return opened;
  }
  const stream = opened;
  return (async function* () {
    try {
      yield* stream;
    } finally {
      await release();
    }
  })() as R;
}

function isStream(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return !!value && typeof (value as AsyncGenerator)[Symbol.asyncIterator] === "function";
}
