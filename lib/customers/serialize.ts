import type { z } from "zod";
import type { StoredMetadata } from "../validation/objects";
import type { CustomerFields } from "./customer-row";
import type { CustomerObject } from "./schemas";

/** A customer as the API shows it (its merchant is not shown). */
export function serializeCustomer(customer: CustomerFields) {
  return {
    id: customer.id,
    object: "customer" as const,
    name: customer.name,
    email: customer.email,
    metadata: customer.metadata as StoredMetadata,
    livemode: customer.livemode,
    createdAt: customer.createdAt.toISOString(),
  } satisfies z.input<typeof CustomerObject>;
}
