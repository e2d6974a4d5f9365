// The door's first statement: a token from the client IP's bucket and, only when it was granted, the resource with
// the credential's earlier sale (FIND_PUBLIC_TEXT), in ONE round trip, as the API-key statement takes its token with
// the route's read (lib/http/authenticate.ts). A 402 challenge is then one round trip in all, and a paid request one
// fewer. Refusals keep their order: 429 before 404. With the Redis buckets (or an id that cannot be one), the token
// is taken on its own first.
import { getDb, sql, statement } from "../db";
import { applyTakeResult, clientIpBucket, limitByClientIp } from "../http/rate-limit-step";
import {
  FIND_PUBLIC_TEXT,
  findPublicPaidResource,
  publicPaidResourceOf,
  type PublicPaidResource,
  type PublicPaidResourceRow,
} from "../paid-resources/get-paid-resource";
import { PAID_RESOURCE_ID } from "../paid-resources/schemas";
import { bucketConfig, bucketsInPostgres } from "../rate-limit";
import { takeTokenText } from "../rate-limit/postgres-limiter";
import { describeBucket, refillPerMs } from "../rate-limit/token-bucket";

// $1 the id, $2 the credential's hash (FIND_PUBLIC_TEXT's), $3 the bucket's size, $4 its refill per ms, $5 its key.
const TAKE_TOKEN_FIND_PUBLIC = statement(
  "paid_resource_public_after_ip_token",
  `WITH t AS (${takeTokenText("$3", "$4", (full) => `SELECT $5::text, ${full}`)})
   SELECT t.tokens AS "ipTokens", t.allowed AS "ipAllowed", x.* FROM t LEFT JOIN (${FIND_PUBLIC_TEXT}) x ON t.allowed`,
);

type Row = PublicPaidResourceRow & { ipTokens: number; ipAllowed: boolean };

/** The client IP's token (429 when none is left, RateLimit-* headers either way), then the resource the door serves. */
export async function limitAndFindResource(
  req: Request,
  headers: Headers,
  id: string,
  credentialHash: string | null,
): Promise<PublicPaidResource | null> {
  if (!bucketsInPostgres() || !PAID_RESOURCE_ID.test(id)) {
    await limitByClientIp(req, headers);
    return findPublicPaidResource(getDb(), id, credentialHash);
  }
  const config = bucketConfig();
  const [row] = await sql().rows<Row>(TAKE_TOKEN_FIND_PUBLIC, [id, credentialHash, config.max, refillPerMs(config), clientIpBucket(req)]);
  const { ipTokens, ipAllowed, ...found } = row;
  applyTakeResult(describeBucket(config, ipAllowed, Number(ipTokens)), headers);
  return publicPaidResourceOf(found);
}
