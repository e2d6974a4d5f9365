import type { Db } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { CreateCustomerInput } from "./schemas";
import { serializeCustomer } from "./serialize";

export async function createCustomer(tx: Db, scope: Scope, input: CreateCustomerInput) {
  const customer = await tx.customer.create({
    data: {
      id: createId("customer"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      name: input.name ?? null,
      email: input.email ?? null,
      metadata: input.metadata ?? {},
    },
  });
  return serializeCustomer(customer);
}
