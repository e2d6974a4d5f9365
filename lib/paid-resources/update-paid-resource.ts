// POST /v1/paid_resources/:id updates what is given; DELETE archives (active: false): an archived resource is
// no longer served at /x402/r/:id or /mpp/r/:id, and its sales stay as they were.
import type { Db } from "../db";
import { ValidationError } from "../errors";
import { Prisma, type PaidResource } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { findPaidResource } from "./get-paid-resource";
import { UPTO_CURRENCY_MESSAGE, type DiscoveryInput, type UpdatePaidResourceInput } from "./schemas";
import { checkDiscovery } from "./discovery";
import { checkForwardUrl } from "./forward-request";
import { serializePaidResource } from "./serialize";

export async function updatePaidResource(tx: Db, scope: Scope, id: string, input: UpdatePaidResourceInput) {
  const current = await findPaidResource(tx, scope, id); // 404 for another merchant's or mode's resource
  // The discovery metadata as it will be, for the method it will have (a GET's metadata may not make a POST's extension).
  if (input.discovery !== undefined || input.method !== undefined)
    checkDiscovery(
      input.method ?? current.method,
      input.discovery === undefined ? (current.discovery as DiscoveryInput | null) : input.discovery,
    );
  const url = input.url !== undefined ? await checkForwardUrl(input.url) : undefined;
  const pricing = checkPricing(current, input);
  const resource = await tx.paidResource.update({
    where: { id },
    data: {
      // A field left out (undefined) is left as it is; url and content replace each other.
      name: input.name,
      description: input.description,
      ...pricing,
      currency: input.currency,
      method: input.method,
      replayable: input.replayable,
      metadata: input.metadata,
      active: input.active,
      listed: input.listed,
      ...(input.discovery !== undefined
        ? { discovery: input.discovery === null ? Prisma.DbNull : (input.discovery as Prisma.InputJsonValue) }
        : {}),
      ...(url !== undefined ? { url, content: Prisma.DbNull } : {}),
      ...(input.content !== undefined ? { content: input.content as Prisma.InputJsonValue, url: null } : {}),
      updatedAt: new Date(),
    },
  });
  return serializePaidResource(resource);
}

/** The price fields of the resource's scheme (set at creation): amount for exact; maxAmount and unitAmount (amount follows the maximum) for upto. */
function checkPricing(current: PaidResource, input: UpdatePaidResourceInput) {
  const wrong = (path: string, message: string) => new ValidationError(`Invalid body: ${path}: ${message}.`, [{ path, message }]);
  if (current.scheme !== "upto") {
    for (const field of ["maxAmount", "unitAmount"] as const) if (input[field] !== undefined) throw wrong(field, 'only for scheme "upto"');
    return { amount: input.amount };
  }
  if (input.amount !== undefined) throw wrong("amount", 'not for scheme "upto" (its amount is maxAmount)');
  if (input.content !== undefined) throw wrong("content", 'scheme "upto" forwards to url (its answer reports X-Usage-Units)');
  if (input.currency !== undefined && input.currency !== "USD") throw wrong("currency", UPTO_CURRENCY_MESSAGE);
  const maxAmount = input.maxAmount ?? current.maxAmount!;
  const unitAmount = input.unitAmount ?? current.unitAmount!;
  if (maxAmount < unitAmount) throw wrong("maxAmount", "must be at least unitAmount (one unit)");
  return { amount: maxAmount, maxAmount, unitAmount };
}

/** Archiving twice is the same archived resource (200 both times). */
export function archivePaidResource(tx: Db, scope: Scope, id: string) {
  return updatePaidResource(tx, scope, id, { active: false });
}
