// docs/api-reference.md "Idempotency": a record past retention is taken over by the next request with its key. When
// two requests take it over at once, the one that waits for the other's row lock must answer from the new holder (409
// while it runs, or its replay), never replay the expired answer its own snapshot still shows. The takeover of the
// first request is played by a transaction held open on another connection; the HTTP request runs meanwhile, waits
// on the row lock inside its one statement, and is answered after the commit.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../../lib/db";
import { requireDatabaseUrl } from "../../lib/env";
import { claim, storeResponse } from "../../lib/idempotency/claims";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const RETENTION_HOURS = 24; // IDEMPOTENCY_RETENTION_HOURS's default, which the test server runs with

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: requireDatabaseUrl() });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

/** Ages the key's record past retention: the next request with the key may take it over. */
async function expire(idempotencyKey: string): Promise<void> {
  const aged = await db.query("UPDATE idempotency_records SET created_at = now() - make_interval(hours => $2 + 1) WHERE key = $1", [
    idempotencyKey,
    RETENTION_HOURS,
  ]);
  expect(aged.rowCount).toBe(1);
}

/** Sends `request` while another connection's transaction holds the key's takeover uncommitted, then commits it. */
async function duringTakeover<T>(idempotencyKey: string, request: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: requireDatabaseUrl() });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    const taken = await holder.query(
      `UPDATE idempotency_records SET id = $2, status = 'in_flight', fingerprint = 'another request', response_status = NULL,
              response_body = NULL, created_at = now(), locked_until = now() + interval '60 seconds'
        WHERE key = $1`,
      [idempotencyKey, `idem_${randomUUID().replaceAll("-", "")}`],
    );
    expect(taken.rowCount).toBe(1);
    const answer = request();
    answer.catch(() => undefined); // it may settle before COMMIT's answer is read: awaited below, never unhandled
    await waitForLockWaiter(holder);
    await holder.query("COMMIT");
    return await answer;
  } finally {
    await holder.end();
  }
}

/** Until a backend waits for a lock the holder's transaction holds. */
async function waitForLockWaiter(holder: pg.Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await holder.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pg_backend_pid() = ANY(pg_blocking_pids(pid))",
    );
    if (rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error("the request never waited for the takeover's row lock");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectInFlight(res: { status: number; body: { error?: { code: string; details?: { reason?: string } } } }) {
  expect(res.status).toBe(409);
  expect(res.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "idempotency_in_flight" } });
}

describe("Idempotency-Key: a record past retention taken over by two requests at once", () => {
  let m: TestMerchant;
  beforeAll(async () => {
    m = await createTestMerchant();
  });

  it("a create whose write shares the claim's statement (POST /v1/customers) answers 409, not the expired replay", async () => {
    const key = randomUUID();
    const post = () => call("POST", "/v1/customers", { key: m.testKey, body: { name: "Ada" }, headers: { "Idempotency-Key": key } });
    expect((await post()).status).toBe(201);
    await expire(key);

    expectInFlight(await duringTakeover(key, post));
    expect((await call("GET", "/v1/customers?limit=100", { key: m.testKey })).body.data).toHaveLength(1);
  });

  it("a claim before a transaction (POST /v1/products) answers 409, not the expired replay", async () => {
    const key = randomUUID();
    const body = { name: "Lamp", unitAmount: 500, currency: "usd" };
    const post = () => call("POST", "/v1/products", { key: m.testKey, body, headers: { "Idempotency-Key": key } });
    expect((await post()).status).toBe(201);
    await expire(key);

    expectInFlight(await duringTakeover(key, post));
    expect((await call("GET", "/v1/products?limit=100", { key: m.testKey })).body.data).toHaveLength(1);
  });

  it("a claim made on its own (claim(): the MCP tools, the Redis buckets' path) refuses, not the expired replay", async () => {
    const scope = { apiKeyId: `key_${randomUUID()}`, livemode: false, key: randomUUID() };
    const first = await claim(sql(), scope, "fingerprint");
    if (first.kind !== "claimed") throw new Error("expected a fresh claim");
    await storeResponse(sql(), first.claimId, 201, '{"id":"first"}');
    await expire(scope.key);

    await expect(duringTakeover(scope.key, () => claim(sql(), scope, "fingerprint"))).rejects.toMatchObject({
      details: { reason: "idempotency_in_flight" },
    });
  });

  it("with no takeover under way, the request after retention runs anew", async () => {
    const key = randomUUID();
    const post = () => call("POST", "/v1/customers", { key: m.testKey, body: { name: "Anew" }, headers: { "Idempotency-Key": key } });
    const first = await post();
    await expire(key);
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });
});
