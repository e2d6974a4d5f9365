// The line items of a checkout as sold: catalog items ({ productId, quantity }) priced from this merchant's
// products in this mode, ad-hoc items ({ name, quantity, unitAmount }) as given. The result is copied into
// the checkout and its order, so a later price change or archive never alters what was sold.
import type { Db } from "../db";
import { NotFoundError, ValidationError, type FieldError } from "../errors";
import { MAX_AMOUNT } from "../money/limits";
import type { Scope } from "../scope";
import type { OpenCheckoutInput } from "./schemas";

export type SoldItem = {
  name: string;
  quantity: number;
  unitAmount: number;
  /** Set for catalog items. */
  productId?: string;
};

export interface PricedCheckout {
  items: SoldItem[];
  amount: number;
  currency: string;
}

export async function priceCheckout(tx: Db, scope: Scope, input: OpenCheckoutInput): Promise<PricedCheckout> {
  const given = input.items ?? [];
  const ids = [...new Set(given.flatMap((item) => ("productId" in item ? [item.productId] : [])))];
  if (!ids.length) {
    const items = given as SoldItem[];
    return {
      items,
      amount: input.amount ?? items.reduce((sum, item) => sum + item.quantity * item.unitAmount, 0),
      currency: input.currency!,
    };
  }
  const products = new Map(
    (await tx.product.findMany({ where: { id: { in: ids }, merchantId: scope.merchantId, livemode: scope.livemode } })).map((p) => [
      p.id,
      p,
    ]),
  );
  const currency = input.currency ?? products.get(ids[0])?.currency;
  const problems: FieldError[] = [];
  const items = given.map((item, index): SoldItem => {
    if (!("productId" in item)) return item;
    const product = products.get(item.productId);
    if (!product) throw new NotFoundError("product", item.productId); // another merchant's or mode's is not ours
    const path = `items.${index}.productId`;
    if (!product.active) problems.push({ path, message: `product ${product.id} is archived and cannot be sold` });
    else if (product.currency !== currency)
      problems.push({ path, message: `product ${product.id} is priced in ${product.currency}, the checkout is in ${currency}` });
    return { name: product.name, quantity: item.quantity, unitAmount: product.unitAmount, productId: product.id };
  });
  if (problems.length) throw new ValidationError(`Invalid items: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`, problems);
  const total = items.reduce((sum, item) => sum + item.quantity * item.unitAmount, 0);
  if (total < 1 || total > MAX_AMOUNT)
    throw new ValidationError(`items must total 1..${MAX_AMOUNT}`, [
      { path: "items", message: `items must total 1..${MAX_AMOUNT} (they total ${total})` },
    ]);
  if (input.amount !== undefined && input.amount !== total) {
    throw new ValidationError(`amount ${input.amount} differs from the items' total ${total}`, [
      { path: "amount", message: `amount ${input.amount} differs from the items' total ${total}` },
    ]);
  }
  return { items, amount: total, currency: currency! };
}
