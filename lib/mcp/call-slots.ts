// At most MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL tool calls of one principal run at once, over every process:
// the count is the principal's row in mcp_call_slots, a lease per running call. Taking a slot is one upsert:
// under the row's lock it drops lapsed leases, counts the live ones and adds one only below the cap (concurrent
// takes queue on the lock and each sees the row as the one before it left it). A lease lapses after
// LEASE_SECONDS, so a process that dies mid-call gives its slots back by itself.
import { randomUUID } from "node:crypto";
import { sql, statement } from "../db";
import { env } from "../env";
import { DomainError } from "../errors";

/** Longer than any tool call runs (a transaction waits at most 5 s for a connection and is rolled back after 15 s). */
const LEASE_SECONDS = 60;

const LIVE_LEASES = "jsonb_each(s.leases) l WHERE (l.value)::float8 > extract(epoch FROM now())";

// $1 principal, $2 lease id, $3 cap, $4 lease seconds. No row: the cap is reached.
const TAKE = statement(
  "mcp_call_slot_take",
  `INSERT INTO mcp_call_slots AS s (principal, leases)
     VALUES ($1, jsonb_build_object($2::text, extract(epoch FROM now()) + $4::int))
   ON CONFLICT (principal) DO UPDATE
     SET leases = (SELECT COALESCE(jsonb_object_agg(l.key, l.value), '{}'::jsonb) FROM ${LIVE_LEASES}) || EXCLUDED.leases
     WHERE (SELECT count(*) FROM ${LIVE_LEASES}) < $3::int
   RETURNING true AS taken`,
);

const RELEASE = statement("mcp_call_slot_release", "UPDATE mcp_call_slots SET leases = leases - $2::text WHERE principal = $1");

/**
 * Runs `call` in one of the principal's slots, or refuses it without running (429 RATE_LIMITED with Retry-After,
 * `details.reason: "too_many_concurrent_calls"`) while the principal already has the cap's number running.
 */
export async function inCallSlot<T>(principal: string, headers: Headers, call: () => Promise<T>): Promise<T> {
  const lease = randomUUID();
  const limit = env.MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL;
  const [taken] = await sql().rows(TAKE, [principal, lease, limit, LEASE_SECONDS]);
  if (!taken) throw tooManyCalls(limit, headers);
  try {
    return await call();
  } finally {
    await sql()
      .rows(RELEASE, [principal, lease])
      .catch((err: unknown) =>
        console.error("mcp: a call slot stays taken until its lease lapses:", err instanceof Error ? err.message : err),
      );
  }
}

function tooManyCalls(limit: number, headers: Headers): DomainError {
  const retryAfterSeconds = 1; // a tool call takes milliseconds: a slot is soon free
  headers.set("Retry-After", String(retryAfterSeconds));
  const message = `This caller already has ${limit} tool calls running, as many as it may: retry after the time in the Retry-After header.`;
  return new DomainError("RATE_LIMITED", message, { reason: "too_many_concurrent_calls", limit, retryAfterSeconds });
}
