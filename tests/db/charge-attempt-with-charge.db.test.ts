// The charge attempt before the rail's call (lib/payments/charge-payment.ts, Rail.chargeWithAttempt): a rail with
// effects outside the database (here the test rail without chargeWithAttempt, as a processor would be) is called only
// once its attempt is committed on its own; the test rail, whose books are this database's, writes the attempt with
// its charge in one statement, so the two commit together, and a charge it refuses before writing leaves neither.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureCheckout } from "../../lib/checkouts/capture-checkout";
import { openCheckout } from "../../lib/checkouts/open-checkout";
import { getDb, transaction } from "../../lib/db";
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
});
