// Test mode only: tops up a customer's test wallet, which the test rail charges for `cus_...` payment methods.
import type { z } from "zod";
import type { Db } from "../db";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import type { Scope } from "../scope";
import type { FundTestWalletInput, TestWalletObject } from "./schemas";

const MAX_WALLET_BALANCE = 1_000_000_000;

export async function fundTestWallet(tx: Db, scope: Scope, customerId: string, input: FundTestWalletInput) {
  if (scope.livemode) throw new ForbiddenError("Test wallets exist only in test mode; use a test key (sk_test_...).");
  const customer = await tx.customer.findFirst({
    where: { id: customerId, merchantId: scope.merchantId, livemode: false },
    select: { id: true },
  });
  if (!customer) throw new NotFoundError("customer", customerId);
  const funded = await tx.$executeRaw`
    INSERT INTO test_wallets (customer_id, currency, balance) VALUES (${customerId}, ${input.currency}, ${input.amount})
    ON CONFLICT (customer_id, currency) DO UPDATE SET balance = test_wallets.balance + EXCLUDED.balance, updated_at = now()
     WHERE test_wallets.balance + EXCLUDED.balance <= ${MAX_WALLET_BALANCE}`;
  if (funded !== 1)
    throw new ValidationError(`A test wallet holds at most ${MAX_WALLET_BALANCE}.`, [
      { path: "amount", message: "wallet would exceed its maximum" },
    ]);
  const balances = await tx.testWallet.findMany({ where: { customerId }, orderBy: { currency: "asc" } });
  return {
    object: "test_wallet" as const,
    customerId,
    livemode: false,
    balances: balances.map((row) => ({ currency: row.currency, amount: row.balance })),
  } satisfies z.input<typeof TestWalletObject>;
}
