import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeCustomer } from "./serialize";

export async function getCustomer(db: Db, scope: Scope, id: string) {
  const customer = await db.customer.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!customer) throw new NotFoundError("customer", id);
  return serializeCustomer(customer);
}
