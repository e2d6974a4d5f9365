// A customer's test wallet balances, one per currency ("$50.00 · €12.00"), or a dash.
import type { WalletBalance } from "@/lib/dashboard/customer-wallets";
import { Money } from "./Money";

export function WalletBalances({ balances }: { balances: WalletBalance[] | undefined }) {
  if (!balances?.length) return <span className="text-slate-500">—</span>;
  return (
    <span className="flex flex-wrap gap-x-3" data-testid="wallet">
      {balances.map((wallet) => (
        <Money key={wallet.currency} amount={wallet.balance} currency={wallet.currency} />
      ))}
    </span>
  );
}
