// GET /v1/balance: the merchant's pending and payable funds per currency, from the running balances (balances.ts):
// its cost does not grow with the merchant's history.
import type { z } from "zod";
import type { Db } from "../db";
import type { Scope } from "../scope";
import { readBalances } from "./balances";
import type { BalanceObject } from "./schemas";

export async function getBalance(db: Db, scope: Scope) {
  const rows = await readBalances(db, scope, ["merchant_pending", "merchant_payable"]);
  const of = (account: string) =>
    rows.filter((row) => row.account === account).map((row) => ({ currency: row.currency, amount: Number(row.amount) }));
  return {
    object: "balance" as const,
    livemode: scope.livemode,
    pending: of("merchant_pending"),
    payable: of("merchant_payable"),
  } satisfies z.input<typeof BalanceObject>;
}
