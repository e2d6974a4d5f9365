import { sqlIn, statement, type Db } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type PaidResource } from "../generated/prisma/client";
import { selectList } from "../sql-model";
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
const FIND_PUBLIC = statement(
  "paid_resource_public",
  `SELECT ${selectList(Prisma.PaidResourceScalarFieldEnum)} FROM paid_resources WHERE id = $1 AND active`,
);

export async function findPublicPaidResource(db: Db, id: string): Promise<PaidResource | null> {
  if (!PAID_RESOURCE_ID.test(id)) return null;
  const [resource] = await sqlIn(db).rows<PaidResource>(FIND_PUBLIC, [id]);
  return resource ?? null;
}
