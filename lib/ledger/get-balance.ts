// GET /v1/balance: the merchant's pending and payable funds per currency, summed from the ledger.
import type { z } from "zod";
import type { Db } from "../db";
import type { Scope } from "../scope";
import type { BalanceObject } from "./schemas";

export async function getBalance(db: Db, scope: Scope) {
  const rows = await db.$queryRaw<{ account: string; currency: string; amount: bigint }[]>`
    SELECT account, currency, sum(amount)::bigint AS amount FROM ledger_entries
     WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
       AND account IN ('merchant_pending', 'merchant_payable')
     GROUP BY account, currency ORDER BY currency`;
  const of = (account: string) =>
    rows.filter((row) => row.account === account).map((row) => ({ currency: row.currency, amount: Number(row.amount) }));
  return {
    object: "balance" as const,
    livemode: scope.livemode,
    pending: of("merchant_pending"),
    payable: of("merchant_payable"),
  } satisfies z.input<typeof BalanceObject>;
}
