import { sqlIn, statement, type Db } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type PaidResource } from "../generated/prisma/client";
import { findInScope, type SqlTable } from "../pagination";
import { selectList } from "../sql-model";
import type { Scope } from "../scope";
import type { PaidSale } from "./paid-answers";
import { PAID_RESOURCE_ID } from "./schemas";
import { serializePaidResource } from "./serialize";

/**
 * The paid_resources table for the raw-SQL reads of lib/pagination.ts (the list, a resource by id): whole rows, as
 * Prisma's (the answer shows whether a forwarding secret is set, and an update or a rotation reads the row).
 */
export const PAID_RESOURCES: SqlTable = { table: "paid_resources", columns: selectList(Prisma.PaidResourceScalarFieldEnum) };

/** The resource row of this merchant and mode; another merchant's, or the other mode's, is 404. */
export async function findPaidResource(db: Db, scope: Scope, id: string): Promise<PaidResource> {
  const resource = await findInScope<PaidResource>(db, PAID_RESOURCES, scope, id);
  if (!resource) throw new NotFoundError("paid_resource", id);
  return resource;
}

export async function getPaidResource(db: Db, scope: Scope, id: string) {
  return serializePaidResource(await findPaidResource(db, scope, id));
}

/**
 * What a public path (/x402/r/:id, /mpp/r/:id) serves: the resource by id alone, active only; an archived or
 * unknown one is null (the caller answers 404). The row says whose it is and in which mode. With it, in the same
 * round trip, the payment the request's exact credential ($2, its hash; null: none) made for the resource within the
 * replay window (paid-answers.ts): a lost answer's retry is found before anything is verified. $1 is the id. The door
 * runs it inside its per-IP token's statement (lib/paid-sale/limit-and-find.ts).
 */
export const FIND_PUBLIC_TEXT = `SELECT ${selectList(Prisma.PaidResourceScalarFieldEnum, "r")},
          s.payment_intent_id AS "earlierPaymentIntentId", s.captured AS "earlierCaptured"
     FROM paid_resources r
     LEFT JOIN LATERAL (
       SELECT a.payment_intent_id, pi.status IN ('captured', 'settled', 'refunded') AS captured
         FROM paid_answers a JOIN payment_intents pi ON pi.id = a.payment_intent_id
        WHERE a.paid_resource_id = r.id AND a.credential_hash = $2 AND a.expires_at > now()) s ON true
    WHERE r.id = $1 AND r.active`;

const FIND_PUBLIC = statement("paid_resource_public", FIND_PUBLIC_TEXT);

export interface PublicPaidResource {
  resource: PaidResource;
  /** The payment this exact credential made for the resource, within the replay window; null if none. */
  earlier: PaidSale | null;
}

/** A row of FIND_PUBLIC_TEXT (its columns all null when no resource was found). */
export type PublicPaidResourceRow = PaidResource & { earlierPaymentIntentId: string | null; earlierCaptured: boolean | null };

export async function findPublicPaidResource(db: Db, id: string, credentialHash: string | null): Promise<PublicPaidResource | null> {
  if (!PAID_RESOURCE_ID.test(id)) return null;
  const [row] = await sqlIn(db).rows<PublicPaidResourceRow>(FIND_PUBLIC, [id, credentialHash]);
  return row ? publicPaidResourceOf(row) : null;
}

/** The resource and its earlier sale from a row of FIND_PUBLIC_TEXT; null when the row found none. */
export function publicPaidResourceOf(row: PublicPaidResourceRow): PublicPaidResource | null {
  const { earlierPaymentIntentId, earlierCaptured, ...resource } = row;
  if (resource.id === null) return null;
  const earlier = earlierPaymentIntentId ? { paymentIntentId: earlierPaymentIntentId, captured: earlierCaptured === true } : null;
  return { resource, earlier };
}
