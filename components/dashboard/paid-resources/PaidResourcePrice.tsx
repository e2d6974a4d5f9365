// What a paid resource costs, as its list and its page show it: exact, its price; upto, the unit price and the
// maximum one payment may be charged (docs/x402.md, "Usage-priced resources").
import { Money } from "../Money";

export function PaidResourcePrice({
  resource,
}: {
  resource: { scheme: "exact" | "upto"; amount: number; maxAmount: number | null; unitAmount: number | null; currency: string };
}) {
  if (resource.scheme !== "upto") return <Money amount={resource.amount} currency={resource.currency} />;
  return (
    <span>
      <Money amount={resource.unitAmount ?? 0} currency={resource.currency} /> per unit, up to{" "}
      <Money amount={resource.maxAmount ?? resource.amount} currency={resource.currency} />
    </span>
  );
}

/** The x402 scheme in words a merchant reads. */
export function schemeLabel(scheme: "exact" | "upto"): string {
  return scheme === "upto" ? "upto (usage-priced)" : "exact (fixed price)";
}
