// Test-mode wallet balances of customers (the test rail's `test_wallets`), for the customers pages:
// customerId -> [{ currency, balance }], in one query for a page of customers.
import type { Db } from "../db";

export interface WalletBalance {
  currency: string;
  balance: number;
}

/** `customerIds` must already be the scope's (they come from listCustomers / getCustomer). */
export async function walletBalances(db: Db, customerIds: string[]): Promise<Map<string, WalletBalance[]>> {
  const byCustomer = new Map<string, WalletBalance[]>();
  if (customerIds.length === 0) return byCustomer;
  const rows = await db.testWallet.findMany({
    where: { customerId: { in: customerIds } },
    orderBy: [{ customerId: "asc" }, { currency: "asc" }],
  });
  for (const row of rows)
    byCustomer.set(row.customerId, [...(byCustomer.get(row.customerId) ?? []), { currency: row.currency, balance: row.balance }]);
  return byCustomer;
}
