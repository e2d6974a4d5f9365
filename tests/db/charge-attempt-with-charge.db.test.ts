// The charge attempt before the rail's call (lib/payments/charge-payment.ts, Rail.chargeWithAttempt): a rail with
// effects outside the database (here the test rail without chargeWithAttempt, as a processor would be) is called only
// once its attempt is committed on its own; the test rail, whose books are this database's, writes the attempt with
// its charge in one statement, so the two commit together, and a charge it refuses before writing leaves neither. A
// caller-chosen key's attempt (x402's authorization, a shared payment token's, a meter's) rides with the charge too: it
// adopts the key's earlier attempt that was never applied, and once that was charged it is refused, nothing charged.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureCheckout } from "../../lib/checkouts/capture-checkout";
import { openCheckout } from "../../lib/checkouts/open-checkout";
import { getDb, sql, statement, transaction } from "../../lib/db";
import { plannedAttempt } from "../../lib/payments/charge-attempts";
import { requireDatabaseUrl } from "../../lib/env";
import type { AttemptWrite, ChargeRequest, Rail } from "../../lib/rails/rail";
import { testRail } from "../../lib/rails/test-rail";
import { createTestMerchant } from "../helpers/merchants";
import { railChargesFor } from "../helpers/payments";

/** The attempt of a charge key as another connection sees it: its status once committed, else null. */
async function attemptSeenFromOutside(chargeKey: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: requireDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string }>("SELECT status FROM payment_attempts WHERE charge_key = $1", [chargeKey]);
    return rows[0]?.status ?? null;
  } finally {
    await client.end();
  }
}

/** The test rail, each call first noting what another connection sees of the attempt; `external`: without chargeWithAttempt. */
function watchedRail(external: boolean, seen: (string | null)[]): Rail {
  const charge = async (request: ChargeRequest) => {
    seen.push(await attemptSeenFromOutside(request.key));
    return testRail.charge(request);
  };
  const withAttempt = async (request: ChargeRequest, attempt: AttemptWrite) => {
    seen.push(await attemptSeenFromOutside(request.key));
    return testRail.chargeWithAttempt!(request, attempt);
  };
  return { ...testRail, charge, chargeWithAttempt: external ? undefined : withAttempt };
}

async function openOne(name: string) {
  const { merchantId } = await createTestMerchant(name);
  const scope = { merchantId, livemode: false };
  const checkout = await transaction((tx) => openCheckout(tx, scope, { amount: 500, currency: "USD" }, { source: "api" }));
  return { scope, checkout };
}

const attemptsOf = (paymentIntentId: string) =>
  getDb().paymentAttempt.findMany({ where: { paymentIntentId }, select: { status: true, chargeKey: true } });

describe("the charge attempt before the rail's call", () => {
  it("an external rail is called once its attempt is committed; the test rail gets the attempt to write with its charge", async () => {
    for (const external of [true, false]) {
      const { scope, checkout } = await openOne(external ? "external rail" : "test rail");
      const seen: (string | null)[] = [];
      const rail = watchedRail(external, seen);
      const order = await transaction((tx) =>
        captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, { verifiedPayment: true, rail }),
      );
      expect(order).toMatchObject({ id: checkout.orderId, status: "paid" });
      expect(seen).toEqual([external ? "pending" : null]);
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
      expect((await attemptsOf(checkout.paymentIntentId)).map((a) => a.status)).toEqual(["succeeded"]);
    }
  });

  it("on the test rail, a crash after the charge leaves the attempt and the charge, both committed: the next capture applies it", async () => {
    const { scope, checkout } = await openOne("crash with the attempt in the charge");
    const crash = () => {
      throw new Error("crashed after the rail charged");
    };
    await expect(
      transaction((tx) => captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, { afterRailCharge: crash })),
    ).rejects.toThrow("crashed after the rail charged");
    expect((await attemptsOf(checkout.paymentIntentId)).map((a) => a.status)).toEqual(["pending"]);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    const order = await transaction((tx) => captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }));
    expect(order).toMatchObject({ id: checkout.orderId, status: "paid" });
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("a charge refused before anything was written (pm_rail_unavailable) leaves no attempt on the test rail, a failed one on an external rail", async () => {
    for (const external of [true, false]) {
      const { scope, checkout } = await openOne(external ? "refused, external" : "refused, test rail");
      const rail = watchedRail(external, []);
      await expect(
        transaction((tx) =>
          captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_rail_unavailable" }, { verifiedPayment: true, rail }),
        ),
      ).rejects.toThrow(/unavailable/);
      expect((await attemptsOf(checkout.paymentIntentId)).map((a) => a.status)).toEqual(external ? ["failed"] : []);
      expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("open");
    }
  });

  it("a caller-chosen key's attempt rides with the test rail's charge: adopted after a rolled-back use, refused once charged", async () => {
    for (const external of [true, false]) {
      const chargeKey = `x402:adopted-${external}-${Date.now()}`;
      const seen: (string | null)[] = [];
      const rail = watchedRail(external, seen);
      const hooks = { verifiedPayment: true, rail, chargeKey };
      const capture = async (name: string, afterRailCharge?: () => void) => {
        const { scope, checkout } = await openOne(name);
        const order = transaction((tx) =>
          captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, { ...hooks, afterRailCharge }),
        );
        return { checkout, order };
      };
      // The first use charges, then rolls back (as a sale's crash would): the attempt and the charge stay.
      const crashed = await capture("adoption: crashed", () => {
        throw new Error("crashed after the rail charged");
      });
      await expect(crashed.order).rejects.toThrow("crashed after the rail charged");
      expect(seen).toEqual([external ? "pending" : null]); // on the test rail the attempt is written with the charge
      // The retry (a new PaymentIntent) adopts the attempt, and the rail answers the charge it made: one charge in all.
      const retried = await capture("adoption: retried");
      expect(await retried.order).toMatchObject({ id: retried.checkout.orderId, status: "paid" });
      expect(await railChargesFor(retried.checkout.paymentIntentId)).toBe(1);
      expect(await attemptsOf(retried.checkout.paymentIntentId)).toEqual([{ status: "succeeded", chargeKey }]);
      expect(await railChargesFor(crashed.checkout.paymentIntentId)).toBe(0);
      // Once charged and applied, the key is refused: 409, nothing charged, the checkout still open.
      const again = await capture("adoption: refused");
      await expect(again.order).rejects.toThrow(/already made/);
      expect(await attemptsOf(again.checkout.paymentIntentId)).toEqual([]);
      expect((await getDb().checkout.findUniqueOrThrow({ where: { id: again.checkout.id } })).status).toBe("open");
      const [{ n }] = await sql().rows<{ n: number }>(CHARGES_OF_KEY, [chargeKey]);
      expect(n).toBe(1);
    }
  });

  it("a customer wallet's charge after an adoption that did not take debits nothing", async () => {
    const customer = `cus_adopt${Date.now()}`;
    await sql().count(FUND_WALLET, [customer, 1_000]);
    const chargeKey = `x402:wallet-${customer}`;
    const request = { key: chargeKey, amount: 300, currency: "USD", paymentMethod: customer };
    const first = plannedAttempt("pi_adoption_wallet_1", "test", customer, chargeKey);
    expect(await testRail.chargeWithAttempt!(request, first.write)).toMatchObject({ status: "succeeded" });
    await sql().count(ATTEMPT_SUCCEEDED, [chargeKey]); // as the capture's transition leaves it
    const second = plannedAttempt("pi_adoption_wallet_2", "test", customer, chargeKey);
    expect(await testRail.chargeWithAttempt!({ ...request, key: chargeKey }, second.write)).toBeNull();
    const [{ balance }] = await sql().rows<{ balance: number }>(WALLET_BALANCE, [customer]);
    expect(Number(balance)).toBe(700);
    const [{ n }] = await sql().rows<{ n: number }>(CHARGES_OF_KEY, [chargeKey]);
    expect(n).toBe(1);
  });
});

const CHARGES_OF_KEY = statement("test_charges_of_key", "SELECT count(*)::int AS n FROM test_rail_charges WHERE charge_key = $1");
const FUND_WALLET = statement("test_fund_wallet", "INSERT INTO test_wallets (customer_id, currency, balance) VALUES ($1, 'USD', $2)");
const WALLET_BALANCE = statement("test_wallet_balance", "SELECT balance FROM test_wallets WHERE customer_id = $1 AND currency = 'USD'");
const ATTEMPT_SUCCEEDED = statement("test_attempt_succeeded", "UPDATE payment_attempts SET status = 'succeeded' WHERE charge_key = $1");
