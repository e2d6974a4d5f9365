import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { PAID_RESOURCE_ID } from "./schemas";
import { serializePaidResource } from "./serialize";

/** The resource row of this merchant and mode; another merchant's, or the other mode's, is 404. */
export async function findPaidResource(db: Db, scope: Scope, id: string): Promise<PaidResource> {
  const resource = await db.paidResource.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!resource) throw new NotFoundError("paid_resource", id);
  return resource;
}

export async function getPaidResource(db: Db, scope: Scope, id: string) {
  return serializePaidResource(await findPaidResource(db, scope, id));
}

/**
 * What a public path (/x402/r/:id, /mpp/r/:id) serves: the resource by id alone, active only; an archived or
 * unknown one is null (the caller answers 404). The row says whose it is and in which mode.
 */
export async function findPublicPaidResource(db: Db, id: string): Promise<PaidResource | null> {
  if (!PAID_RESOURCE_ID.test(id)) return null;
  return db.paidResource.findFirst({ where: { id, active: true } });
}
