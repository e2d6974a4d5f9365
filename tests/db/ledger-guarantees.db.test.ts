// The database itself refuses an unbalanced posting (deferred constraint trigger) and any edit of the ledger.
import { describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { post } from "../../lib/ledger/post";
import { createTestMerchant } from "../helpers/merchants";

describe("ledger guarantees in the database", () => {
  it("an unbalanced posting fails at commit; a balanced one commits; entries cannot be changed or deleted", async () => {
    const { merchantId } = await createTestMerchant("Ledger guard");
    const leg = (posting: string, account: string, amount: number) =>
      getDb().$executeRaw`INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id)
        VALUES (${posting}, 'capture', ${merchantId}, false, ${account}, 'USD', ${amount}, 'pi_x')`;
    await expect(
      transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id)
          VALUES ('lp_unbalanced', 'capture', ${merchantId}, false, 'payer', 'USD', -100, 'pi_x')`;
      }),
    ).rejects.toThrow(/unbalanced/);
    // Two legs in one transaction balance: commits.
    await transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id)
        VALUES ('lp_ok_' || ${merchantId}, 'capture', ${merchantId}, false, 'payer', 'USD', -100, 'pi_x'),
               ('lp_ok_' || ${merchantId}, 'capture', ${merchantId}, false, 'merchant_pending', 'USD', 100, 'pi_x')`;
    });
    // A single leg outside a transaction is its own transaction: refused.
    await expect(leg("lp_single", "payer", -5)).rejects.toThrow(/unbalanced/);
    await expect(getDb().$executeRaw`UPDATE ledger_entries SET amount = 1 WHERE merchant_id = ${merchantId}`).rejects.toThrow(
      /append-only/,
    );
    await expect(getDb().$executeRaw`DELETE FROM ledger_entries WHERE merchant_id = ${merchantId}`).rejects.toThrow(/append-only/);
    // The application check refuses before the database would.
    await expect(
      transaction((tx) =>
        post(tx, {
          kind: "capture",
          scope: { merchantId, livemode: false },
          currency: "USD",
          paymentIntentId: "pi_x",
          legs: [
            { account: "payer", amount: -1 },
            { account: "merchant_pending", amount: 2 },
          ],
        }),
      ),
    ).rejects.toThrow(/Unbalanced/);
  });

  it("a PaymentIntent can never be refunded past what it captured (CHECK constraint)", async () => {
    const { merchantId } = await createTestMerchant("PI guard");
    await getDb().$executeRaw`INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source)
      VALUES ('pi_guard_' || ${merchantId}, ${merchantId}, false, 'captured', 100, 100, 'USD', 'api')`;
    await expect(
      getDb().$executeRaw`UPDATE payment_intents SET amount_refunded = 101 WHERE id = 'pi_guard_' || ${merchantId}`,
    ).rejects.toThrow(/payment_intents_amounts_valid|check/i);
  });
});
