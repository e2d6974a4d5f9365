// Running balances (lib/ledger/balances.ts): every posting's deltas written by the database in its own statement,
// folded by the tick into one total per key; a balance (totals + deltas) always equals the sum of the entries, under
// concurrent postings and folds, and the ledger check sees it the moment a total is broken on purpose.
import { describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { foldBalanceDeltas, readBalances } from "../../lib/ledger/balances";
import { revenueByDay } from "../../lib/dashboard/home";
import { postCapture, postRefund, postSettlement } from "../../lib/ledger/post";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { createTestMerchant } from "../helpers/merchants";

const ACCOUNTS = ["payer", "merchant_pending", "merchant_payable"];

async function entrySums(merchantId: string) {
  const rows = await getDb().$queryRaw<{ account: string; currency: string; amount: bigint }[]>`
    SELECT account, currency, sum(amount)::bigint AS amount FROM ledger_entries
     WHERE merchant_id = ${merchantId} AND livemode = false GROUP BY account, currency ORDER BY currency, account`;
  return rows.map((r) => `${r.account} ${r.currency} ${r.amount}`);
}

async function balances(merchantId: string) {
  const rows = await readBalances(getDb(), { merchantId, livemode: false }, ACCOUNTS);
  return rows.map((r) => `${r.account} ${r.currency} ${r.amount}`);
}

const drift = async (merchantId: string) => (await verifyLedger(getDb(), [merchantId])).filter((p) => p.includes("running balance"));

describe("running balances", () => {
  it("equal the entries before and after a fold, under 40 concurrent postings of one merchant and concurrent folds", async () => {
    const { merchantId } = await createTestMerchant("Running balances");
    const scope = { merchantId, livemode: false };
    const postings = Array.from({ length: 40 }, (_, i) =>
      transaction(async (tx) => {
        await postCapture(tx, scope, `pi_rb_${i}`, i % 2 ? "USD" : "EUR", 100 + i);
        if (i % 3 === 0) await postSettlement(tx, scope, `pi_rb_${i}`, i % 2 ? "USD" : "EUR", 100 + i);
      }),
    );
    const folds = Array.from({ length: 5 }, () => foldBalanceDeltas(getDb()));
    await Promise.all([...postings, ...folds]);
    expect(await balances(merchantId)).toEqual(await entrySums(merchantId));
    expect(await drift(merchantId)).toEqual([]);

    while ((await foldBalanceDeltas(getDb())) > 0);
    const left = await getDb().ledgerBalanceDelta.count({ where: { merchantId } });
    expect(left).toBe(0);
    expect(await balances(merchantId)).toEqual(await entrySums(merchantId));
    expect(await drift(merchantId)).toEqual([]);
  });

  it("the ledger check fails when a total is broken on purpose", async () => {
    const { merchantId } = await createTestMerchant("Broken balance");
    await transaction((tx) => postCapture(tx, { merchantId, livemode: false }, "pi_rb_broken", "USD", 500));
    while ((await foldBalanceDeltas(getDb())) > 0);
    expect(await drift(merchantId)).toEqual([]);
    await getDb()
      .$executeRaw`UPDATE ledger_balances SET amount = amount + 1 WHERE merchant_id = ${merchantId} AND account = 'merchant_pending'`;
    expect(await drift(merchantId)).toEqual([
      `running balance of ${merchantId} (test) merchant_pending USD is 501, the entries sum to 500`,
    ]);
    await getDb()
      .$executeRaw`UPDATE ledger_balances SET amount = amount - 1 WHERE merchant_id = ${merchantId} AND account = 'merchant_pending'`;
    expect(await drift(merchantId)).toEqual([]);
  });

  it("the dashboard's net volume per day reads the daily totals: the same before and after the fold", async () => {
    const { merchantId } = await createTestMerchant("Daily volume");
    const scope = { merchantId, livemode: false };
    await transaction(async (tx) => {
      await postCapture(tx, scope, "pi_rb_day", "USD", 700);
      await postRefund(tx, scope, "pi_rb_day", "re_rb_day", "USD", 200, false);
    });
    const today = new Date().toISOString().slice(0, 10);
    const before = await revenueByDay(getDb(), scope);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ currency: "USD", total: 500 });
    expect(before[0].days.at(-1)).toEqual({ day: today, amount: 500 });
    while ((await foldBalanceDeltas(getDb())) > 0);
    expect(await revenueByDay(getDb(), scope)).toEqual(before);
  });
});
