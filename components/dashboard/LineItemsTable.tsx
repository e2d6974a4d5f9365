// The "Items" table of an order or a checkout: name, quantity, unit price and line total. `items` is the
// stored JSON (a list of { name, quantity, unitAmount }, or nothing for an amount-only order).
import type { ReactNode } from "react";
import { DataTable } from "./DataTable";
import { Money } from "./Money";

interface LineItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

export function LineItemsTable({ items, currency, empty }: { items: unknown; currency: string; empty: ReactNode }) {
  const rows = (Array.isArray(items) ? (items as LineItem[]) : []).map((item, index) => ({ ...item, id: String(index) }));
  return (
    <DataTable
      caption="Items"
      rows={rows}
      empty={empty}
      columns={[
        { header: "Item", cell: (item) => item.name },
        { header: "Qty", cell: (item) => item.quantity, align: "right" },
        { header: "Unit price", cell: (item) => <Money amount={item.unitAmount} currency={currency} />, align: "right" },
        { header: "Total", cell: (item) => <Money amount={item.unitAmount * item.quantity} currency={currency} />, align: "right" },
      ]}
    />
  );
}
