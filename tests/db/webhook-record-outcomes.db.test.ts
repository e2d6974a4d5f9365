// The sender's record statement (recordOutcomes, lib/webhooks/sender.ts): ONE statement per flush writes the
// log row of every attempt, moves each queue row on only while it is still leased for that attempt (a lease
// that ran out and was claimed again is never overwritten), keeps the endpoints' failure run, and is
// all-or-nothing. The rows are this file's own: events already fanned out, deliveries leased for an hour, so
// no other file's sender touches them.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { createMerchant } from "../../lib/merchants/create-merchant";
import { recordOutcomes } from "../../lib/webhooks/sender";

type Outcome = Parameters<typeof recordOutcomes>[0][number];

const tag = `rec${Date.now().toString(36)}`;
const ep = (name: string) => `we_${tag}_${name}`;
const dl = (name: string) => `wdl_${tag}_${name}`;
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Record outcomes" }));
  await pool.query(
    `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, enabled_events, status, secret_ciphertext, failing_since)
     VALUES ($2, $1, false, 'http://127.0.0.1:9/a', '{}', 'enabled', 'x', now() - interval '1 hour'),
            ($3, $1, false, 'http://127.0.0.1:9/b', '{}', 'enabled', 'x', NULL),
            ($4, $1, false, 'http://127.0.0.1:9/c', '{}', 'enabled', 'x', now() - interval '200 hours')`,
    [merchant.merchantId, ep("healing"), ep("failing"), ep("dead")],
  );
  await pool.query(
    `INSERT INTO events (id, merchant_id, livemode, type, data, fanned_out_at)
     VALUES ($2, $1, false, 'order.paid', '{"object":{}}', now())`,
    [merchant.merchantId, `evt_${tag}`],
  );
  // [delivery, endpoint, attempts as leased now]
  const rows: [string, string, number][] = [
    [dl("ok"), ep("healing"), 1],
    [dl("retry"), ep("failing"), 1],
    [dl("last"), ep("failing"), 3],
    [dl("reclaimed"), ep("healing"), 2],
    [dl("dead"), ep("dead"), 1],
  ];
  for (const [id, endpoint, attempts] of rows)
    await pool.query(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until)
       VALUES ($1, $2, $3, 'sending', $4, now(), now() + interval '1 hour')`,
      [id, `evt_${tag}`, endpoint, attempts],
    );
});
afterAll(async () => {
  await pool?.query(`DELETE FROM webhook_endpoints WHERE id LIKE $1`, [`we_${tag}_%`]);
  await pool?.query(`DELETE FROM events WHERE id = $1`, [`evt_${tag}`]);
  await pool?.end();
});

const attemptedAt = new Date(Date.now() - 1_000);
const outcome = (id: string, endpoint: string, attempts: number, ok: boolean, retryInSeconds: number | null): Outcome => ({
  row: { id, endpoint_id: endpoint, event_id: `evt_${tag}`, attempts } as Outcome["row"],
  result: ok
    ? { ok: true, responseStatus: 200, durationMs: 3, error: null }
    : { ok: false, responseStatus: 500, durationMs: 4, error: "http_error" },
  attemptedAt,
  nextAttemptAt: retryInSeconds === null ? null : new Date(attemptedAt.getTime() + retryInSeconds * 1000),
});

const delivery = async (id: string) =>
  (
    await pool.query<{ status: string; attempts: number; next_attempt_at: Date; locked_until: Date | null }>(
      `SELECT status, attempts, next_attempt_at, locked_until FROM webhook_deliveries WHERE id = $1`,
      [id],
    )
  ).rows[0];
const log = async (id: string) =>
  (
    await pool.query<{ status: string; attempt: number; response_status: number | null; attempted_at: Date; next_attempt_at: Date | null }>(
      `SELECT status, attempt, response_status, attempted_at, next_attempt_at FROM webhook_delivery_attempts WHERE delivery_id = $1`,
      [id],
    )
  ).rows;
const endpoint = async (id: string) =>
  (
    await pool.query<{ status: string; failing_since: Date | null }>(`SELECT status, failing_since FROM webhook_endpoints WHERE id = $1`, [
      id,
    ])
  ).rows[0];

describe("recordOutcomes", () => {
  it("is all-or-nothing: one bad outcome (an unknown delivery) and nothing of the flush is written", async () => {
    await expect(
      recordOutcomes([outcome(dl("ok"), ep("healing"), 1, true, null), outcome(dl("missing"), ep("healing"), 1, true, null)]),
    ).rejects.toThrow();
    expect((await delivery(dl("ok"))).status).toBe("sending");
    expect(await log(dl("ok"))).toEqual([]);
  });

  it("logs every attempt, moves on only the rows still leased for that attempt, and keeps the endpoints' failure run", async () => {
    await recordOutcomes([
      outcome(dl("ok"), ep("healing"), 1, true, null),
      outcome(dl("retry"), ep("failing"), 1, false, 60),
      outcome(dl("last"), ep("failing"), 3, false, null),
      outcome(dl("reclaimed"), ep("healing"), 1, false, 60), // attempt 1 ended after its lease ran out and attempt 2 was claimed
      outcome(dl("dead"), ep("dead"), 1, false, 60),
    ]);

    const ok = await delivery(dl("ok"));
    expect(ok).toMatchObject({ status: "succeeded", attempts: 1, locked_until: null });
    expect(await log(dl("ok"))).toEqual([
      { status: "succeeded", attempt: 1, response_status: 200, attempted_at: attemptedAt, next_attempt_at: null },
    ]);

    const retry = await delivery(dl("retry"));
    expect(retry).toMatchObject({ status: "pending", locked_until: null });
    expect(retry.next_attempt_at.getTime()).toBe(attemptedAt.getTime() + 60_000);
    expect((await log(dl("retry")))[0]).toMatchObject({ status: "failed", attempt: 1, response_status: 500 });

    expect(await delivery(dl("last"))).toMatchObject({ status: "failed", attempts: 3, locked_until: null });

    // The other sender's attempt 2 still holds the row; attempt 1 is in the log all the same.
    const reclaimed = await delivery(dl("reclaimed"));
    expect(reclaimed).toMatchObject({ status: "sending", attempts: 2 });
    expect(reclaimed.locked_until).not.toBeNull();
    expect(await log(dl("reclaimed"))).toMatchObject([{ status: "failed", attempt: 1 }]);

    // A success in the flush ends the endpoint's failure run (a failure of the same endpoint beside it does not start one).
    expect(await endpoint(ep("healing"))).toEqual({ status: "enabled", failing_since: null });
    // Failures only: the run starts now...
    const failing = await endpoint(ep("failing"));
    expect(failing.status).toBe("enabled");
    expect(Date.now() - failing.failing_since!.getTime()).toBeLessThan(60_000);
    // ...or, failing for longer than WEBHOOK_DISABLE_AFTER_HOURS (120 h), the endpoint is disabled.
    expect((await endpoint(ep("dead"))).status).toBe("disabled");
  });
});
