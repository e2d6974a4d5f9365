// A database outage answered as what it is (docs/operations.md "Database outage"). A server started the README's
// way (server.mjs with its background work, and npm start's 1 s ticker) on a PostgreSQL of this file's own: the
// database is stopped for 6 s, started, then killed with SIGKILL and started again (crash recovery), while 30
// captures with Idempotency-Keys are retried until paid. Every answer in between is 503 CIRCUIT_OPEN with
// Retry-After and reason database_unavailable (never 500 INVARIANT_VIOLATION); each checkout is paid once, the
// books balance, one order.paid per checkout reaches a real receiver, and the log says "database unavailable"
// once per outage, not once per request. Then the shape of the same answer on every other composition.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { startTicker } from "../../scripts/lib/ticker";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call, type ApiResponse } from "../helpers/http";
import type { TestMerchant } from "../helpers/merchants";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { ownPostgres, type OwnPostgres } from "../helpers/own-postgres";
import { capture, createCustomer, openCheckout, sleep } from "../helpers/payments";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const CHECKOUTS = 30;
const AMOUNT = 700;
const FUNDED = 1000;

let pg: OwnPostgres;
let own: OwnDatabase;
let m: TestMerchant;
let server: ServerProcess;
let receiver: Receiver;
let stopTicker: () => void = () => {};

beforeAll(async () => {
  pg = await ownPostgres("outage");
  own = await ownDatabase("outage", pg.url("postgres"));
  m = await own.createMerchant("Outage");
  receiver = await startReceiver();
  // The default IDEMPOTENCY_LOCK_SECONDS (60): a claim the outage left in flight must be released, not waited out.
  server = await startTestServer({ DATABASE_URL: own.url, WEBHOOK_WAKE_ON_COMMIT: "1", FAULT_INJECTION: "0" });
  stopTicker = startTicker(server.url, TEST_CRON_SECRET);
  const endpoint = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, base: server.url, body: { url: receiver.url } });
  expect(endpoint.status).toBe(201);
}, 60_000);

afterAll(async () => {
  stopTicker();
  await server?.stop();
  await receiver?.close();
  await own?.drop().catch(() => undefined);
  await pg?.destroy();
});

interface Answer {
  status: number;
  code?: string;
  reason?: unknown;
  retryAfter: string | null;
}

function answerOf(res: ApiResponse): Answer {
  return {
    status: res.status,
    code: res.body?.error?.code,
    reason: res.body?.error?.details?.reason,
    retryAfter: res.headers.get("retry-after"),
  };
}

/** Milliseconds from `since` until /ready answers 200. */
async function readyAfter(since: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${server.url}/ready`).catch(() => null);
    if (res?.status === 200) return Date.now() - since;
    if (Date.now() - since > 10_000) throw new Error("not ready 10 s after the database's return");
    await sleep(10);
  }
}

const countLines = (pattern: RegExp) =>
  server
    .output()
    .split("\n")
    .filter((line) => pattern.test(line)).length;

describe("a database outage (stopped 6 s, then SIGKILL) during 30 captures", () => {
  it("answers 503 CIRCUIT_OPEN with Retry-After throughout; each checkout paid once; one order.paid each; the log says it once", async () => {
    const payers = await Promise.all(
      Array.from({ length: CHECKOUTS }, () => createCustomer(m.testKey, { amount: FUNDED, currency: "usd" }, server.url)),
    );
    const checkouts = await Promise.all(payers.map(() => openCheckout(m.testKey, { amount: AMOUNT, expiresInSeconds: 3600 }, server.url)));
    // Even ones pay from the payer's wallet, odd ones with the test card (both charge the test rail, whose books are a side pool's).
    const methodOf = (i: number) => (i % 2 === 0 ? payers[i].id : "pm_card_visa");

    const answers: Answer[] = [];
    const last: (Answer & { body?: unknown })[] = [];
    const payEventually = async (i: number) => {
      await sleep(i * 300); // the captures start over 9 s, across both outages
      for (;;) {
        const res = await capture(m.testKey, checkouts[i].id, methodOf(i), {
          base: server.url,
          headers: { "Idempotency-Key": `outage-${checkouts[i].id}` },
        });
        answers.push(answerOf(res));
        last[i] = { ...answerOf(res), body: res.body };
        if (res.status === 200) return res.body;
        if (res.status !== 503 && res.status !== 409) throw new Error(`capture ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      }
    };
    const paying = Promise.all(checkouts.map((_, i) => payEventually(i)));

    await sleep(1_000);
    await pg.stop();
    await sleep(6_000);
    await pg.start();
    const firstReturn = await readyAfter(Date.now());
    await sleep(1_500);
    await pg.kill();
    await sleep(1_000);
    await pg.start();
    const secondReturn = await readyAfter(Date.now());
    const orders = await Promise.race([
      paying,
      sleep(30_000).then(() => {
        const unpaid = last.flatMap((a, i) => (a.status === 200 ? [] : [`${i}: ${JSON.stringify(a)}`]));
        throw new Error(
          `not every checkout was paid 30 s after the database's return:\n${unpaid.join("\n")}\n${server.output().slice(-5000)}`,
        );
      }),
    ]);

    const failed = answers.filter((a) => a.status !== 200);
    const outage = failed.filter((a) => a.status === 503);
    console.log(
      `${answers.length} answers: ${outage.length} 503, ${failed.length - outage.length} 409 (a charge being settled); ready ${firstReturn} ms and ${secondReturn} ms after each return`,
    );
    expect(outage.length).toBeGreaterThanOrEqual(CHECKOUTS);
    for (const a of failed) {
      // 409: a charge the outage hid is settled first (unknown to the rail: once no call can still land, 23 s)
      if (a.status === 409) expect(a.code).toBe("CONFLICT");
      else expect(a).toEqual({ status: 503, code: "CIRCUIT_OPEN", reason: "database_unavailable", retryAfter: "1" });
    }
    expect(firstReturn).toBeLessThan(1_000);
    expect(secondReturn).toBeLessThan(1_000);

    // Each checkout paid once: its order paid, one charge (wallet or rail), the books balanced.
    expect(orders.map((o) => [o.id, o.status])).toEqual(checkouts.map((c) => [c.orderId, "paid"]));
    const charges = await own.db.$queryRaw<{ payment_intent_id: string; n: bigint }[]>`
      SELECT a.payment_intent_id, count(*) AS n FROM test_rail_charges c JOIN payment_attempts a ON a.charge_key = c.charge_key
       WHERE c.status = 'succeeded' AND a.payment_intent_id = ANY(${checkouts.map((c) => c.paymentIntentId)}) GROUP BY 1`;
    expect(charges.map((c) => Number(c.n))).toEqual(Array(CHECKOUTS).fill(1)); // a wallet payment is a rail charge too
    for (let i = 0; i < CHECKOUTS; i += 2) {
      const wallet = await call("POST", `/v1/customers/${payers[i].id}/fund`, {
        key: m.testKey,
        base: server.url,
        body: { amount: 1, currency: "usd" },
      });
      expect(wallet.body.balances).toEqual([{ currency: "USD", amount: FUNDED - AMOUNT + 1 }]);
    }
    const captured = await own.db.$queryRaw<{ total: bigint }[]>`
      SELECT coalesce(sum(amount), 0) AS total FROM payment_intents WHERE merchant_id = ${m.merchantId} AND status IN ('captured', 'settled')`;
    expect(Number(captured[0].total)).toBe(CHECKOUTS * AMOUNT);
    expect(await verifyLedger(own.db, [m.merchantId])).toEqual([]);

    // One order.paid per checkout reached the receiver (a redelivery repeats the same event id).
    const paidEvents = () => receiver.received.filter((d) => d.event.type === "order.paid");
    await receiver.waitFor(() => new Set(paidEvents().map((d) => d.event.data.object.id)).size === CHECKOUTS, 30_000);
    const eventIdsByOrder = new Map<string, Set<string>>();
    for (const d of paidEvents())
      eventIdsByOrder.set(d.event.data.object.id, (eventIdsByOrder.get(d.event.data.object.id) ?? new Set()).add(d.event.id));
    expect([...eventIdsByOrder.values()].map((ids) => ids.size)).toEqual(Array(CHECKOUTS).fill(1));

    // Two outages: "database unavailable" and "database available again" about once each, not once per request.
    const unavailable = countLines(/database unavailable/);
    const availableAgain = countLines(/database available again/);
    console.log(`log: ${unavailable} "database unavailable", ${availableAgain} "database available again" lines`);
    expect(unavailable).toBeGreaterThanOrEqual(2);
    expect(unavailable).toBeLessThanOrEqual(4);
    expect(availableAgain).toBeGreaterThanOrEqual(2);
    expect(availableAgain).toBeLessThanOrEqual(4);
    // Nothing else about it: no request's error, no background loop's, no dropped pool connection's.
    const noise = server
      .output()
      .split("\n")
      .filter((line) => !/database (unavailable|available again)/.test(line))
      .filter((line) => /unhandled error|could not settle|ECONNREFUSED|terminat|Connection|sender:|listener|pool/i.test(line));
    expect(noise).toEqual([]);
  }, 90_000);

  it("every composition answers the outage in its own shape: /v1, ACP, MPP, A2A, /mcp, x402, OAuth, the pages, /ready, the tick", async () => {
    await pg.stop();
    try {
      const v1 = await call("GET", "/v1/checkouts", { key: m.testKey, base: server.url });
      expect(answerOf(v1)).toEqual({ status: 503, code: "CIRCUIT_OPEN", reason: "database_unavailable", retryAfter: "1" });

      const acp = await fetch(`${server.url}/acp/checkout_sessions`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${m.testKey}`,
          "API-Version": "2026-01-16",
          "Idempotency-Key": "outage-acp",
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ items: [{ id: "prod_x", quantity: 1 }] }),
      });
      expect([acp.status, acp.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await acp.json()).toMatchObject({ type: "service_unavailable", code: "service_unavailable" });

      const mpp = await fetch(`${server.url}/mpp/r/xr_outage`);
      expect([mpp.status, mpp.headers.get("retry-after"), mpp.headers.get("content-type")]).toEqual([503, "1", "application/problem+json"]);
      expect(await mpp.json()).toMatchObject({
        status: 503,
        title: "Service Unavailable",
        code: "CIRCUIT_OPEN",
        reason: "database_unavailable",
      });

      const rpc = { jsonrpc: "2.0", id: 1, method: "message/send", params: {} };
      const a2a = await fetch(`${server.url}/a2a/${m.merchantId}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${m.testKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(rpc),
      });
      const mcp = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${m.testKey}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ ...rpc, method: "tools/list" }),
      });
      for (const res of [a2a, mcp]) {
        expect([res.status, res.headers.get("retry-after")]).toEqual([503, "1"]);
        expect(await res.json()).toMatchObject({
          jsonrpc: "2.0",
          error: { code: -32603, data: { code: "CIRCUIT_OPEN", reason: "database_unavailable" } },
        });
      }

      // x402 and OAuth's public endpoints answer in the error contract (neither protocol has an outage shape of its own).
      const x402 = await fetch(`${server.url}/x402/r/xr_outage`);
      const token = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "grant_type=authorization_code&code=x",
      });
      for (const res of [x402, token]) {
        expect([res.status, res.headers.get("retry-after")]).toEqual([503, "1"]);
        expect(await res.json()).toMatchObject({ error: { code: "CIRCUIT_OPEN", details: { reason: "database_unavailable" } } });
      }

      // The pages: a 503 page rather than one that fails to render; /ready not ready; the tick runs nothing.
      for (const page of ["/dashboard", "/pay/chk_outage"]) {
        const res = await fetch(`${server.url}${page}`, { redirect: "manual" });
        expect([page, res.status, res.headers.get("retry-after")]).toEqual([page, 503, "1"]);
        expect(await res.text()).toContain("Temporarily unavailable");
      }
      const ready = await fetch(`${server.url}/ready`);
      expect([ready.status, (await ready.json()).checks.database]).toEqual([503, "failing"]);
      const tick = await fetch(`${server.url}/api/cron/tick`, { headers: { Authorization: `Bearer ${TEST_CRON_SECRET}` } });
      expect([tick.status, (await tick.json()).error.code]).toEqual([503, "CIRCUIT_OPEN"]);
    } finally {
      await pg.start();
    }
    expect(await readyAfter(Date.now())).toBeLessThan(1_000);
    expect((await call("GET", "/v1/checkouts?limit=1", { key: m.testKey, base: server.url })).status).toBe(200);
  }, 60_000);
});
