import type { Customer } from "../generated/prisma/client";

export function serializeCustomer(customer: Customer) {
  return {
    id: customer.id,
    object: "customer" as const,
    name: customer.name,
    email: customer.email,
    metadata: customer.metadata,
    livemode: customer.livemode,
    createdAt: customer.createdAt.toISOString(),
  };
}
