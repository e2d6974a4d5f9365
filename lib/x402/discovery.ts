// GET /x402/discovery/resources (public, limited per client IP; docs/x402.md, "Discovery"): this deployment's listed
// hosted paid resources as an x402 facilitator's discovery API lists them (the shape @x402/extensions' withBazaar()
// client reads: { x402Version, items: [{ resource, type, x402Version, accepts, lastUpdated, description, mimeType,
// extensions }], pagination: { limit, offset, total } }), with its filters (`type`, `scheme`, `network`, `payTo`,
// `extensions`) and `limit` / `offset` paging. Which mode it lists: lib/paid-resources/discovery.ts.
import { BAZAAR } from "@x402/extensions/bazaar";
import { z } from "zod";
import { BASE_SEPOLIA } from "../chains/networks";
import { liveNetworks } from "../chains/live-networks";
import { payableNetworks, payToAddress, type PayableNetwork } from "../chains/payable-networks";
import type { Db } from "../db";
import { discoveryLivemode, listedResources } from "../paid-resources/discovery";
import { SCHEME } from "./networks";
import { UPTO } from "./upto";
import { discoveryExtensions, resourceRequirements } from "./serve-resource";

const Filter = z.string().min(1).max(128);

export const X402DiscoveryQuery = z
  .object({
    /** The protocol type: every hosted resource is "http" (another type lists nothing). */
    type: Filter.optional(),
    /** The payment scheme: "exact" or "upto" (usage-priced). */
    scheme: Filter.optional(),
    /** A CAIP-2 network the resource is payable on. */
    network: Filter.optional(),
    /** The address it is paid to (any case): its merchant's test address, or a live payout address. */
    payTo: Filter.optional(),
    /** An extension the resource declares: "bazaar". */
    extensions: Filter.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type X402DiscoveryQueryInput = z.output<typeof X402DiscoveryQuery>;

export const X402DiscoveryResources = z
  .object({
    x402Version: z.literal(2),
    items: z.array(
      z.object({
        /** The resource's x402 URL (/x402/r/:id). */
        resource: z.string(),
        type: z.literal("http"),
        x402Version: z.literal(2),
        /** Its x402 v2 PaymentRequirements, one per network it is payable on (the price in `amount`, atomic USDC). */
        accepts: z.array(z.record(z.string(), z.unknown())),
        lastUpdated: z.string(),
        description: z.string(),
        mimeType: z.string().optional(),
        /** `bazaar`: the discovery extension its 402 declares ({ info, schema }). */
        extensions: z.record(z.string(), z.unknown()),
      }),
    ),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() }),
  })
  .meta({ id: "X402DiscoveryResources" });

export async function listX402Discovery(db: Db, query: X402DiscoveryQueryInput) {
  const { limit, offset } = query;
  const none = { x402Version: 2 as const, items: [], pagination: { limit, offset, total: 0 } };
  if (query.type !== undefined && query.type !== "http") return none;
  if (query.scheme !== undefined && query.scheme !== SCHEME && query.scheme !== UPTO) return none;
  if (query.extensions !== undefined && query.extensions !== BAZAAR.key) return none;
  const livemode = discoveryLivemode("x402");
  // Live: only resources whose merchant has a payout address on a network this deployment settles on (or the one asked).
  let networks = livemode ? liveNetworks().map((network) => network.caip2) : null;
  if (query.network !== undefined) {
    if (networks === null ? query.network !== BASE_SEPOLIA.caip2 : !networks.includes(query.network)) return none;
    if (networks !== null) networks = [query.network];
  }
  const merchantIds = query.payTo === undefined ? undefined : await merchantsPaidTo(db, livemode, query.payTo, networks);
  const x402 = { networks, scheme: query.scheme, merchantIds };
  const { rows, total } = await listedResources(db, livemode, { offset, limit, x402 });
  const payable = new Map<string, PayableNetwork[]>();
  for (const merchantId of new Set(rows.map((row) => row.merchantId)))
    payable.set(merchantId, await payableNetworks(db, merchantId, livemode));
  const items = rows.map((resource) => {
    const on = (payable.get(resource.merchantId) ?? []).filter(
      (network) =>
        (query.network === undefined || network.caip2 === query.network) &&
        (query.payTo === undefined || network.payTo.toLowerCase() === query.payTo.toLowerCase()),
    );
    const terms = resourceRequirements(resource, on);
    return {
      resource: terms.resource.url,
      type: "http" as const,
      x402Version: 2 as const,
      accepts: terms.v2,
      lastUpdated: resource.updatedAt.toISOString(),
      description: terms.resource.description,
      ...(terms.resource.mimeType ? { mimeType: terms.resource.mimeType } : {}),
      extensions: discoveryExtensions(resource),
    };
  });
  return { x402Version: 2 as const, items, pagination: { limit, offset, total } };
}

/**
 * The merchants paid at `payTo`: live, those with it as a current payout address on one of the networks; test, those
 * whose derived test address it is (payable-networks.ts: not invertible, so the merchants with listed test resources
 * are compared).
 */
async function merchantsPaidTo(db: Db, livemode: boolean, payTo: string, networks: string[] | null): Promise<string[]> {
  if (livemode) {
    const rows = await db.$queryRaw<{ merchantId: string }[]>`
      SELECT DISTINCT merchant_id AS "merchantId" FROM x402_payout_addresses
       WHERE lower(address) = lower(${payTo}) AND replaced_at IS NULL AND network = ANY(${networks ?? []})`;
    return rows.map((row) => row.merchantId);
  }
  const listed = await db.paidResource.findMany({
    where: { listed: true, active: true, livemode: false },
    distinct: ["merchantId"],
    select: { merchantId: true },
  });
  return listed.map((row) => row.merchantId).filter((id) => payToAddress(id, false).toLowerCase() === payTo.toLowerCase());
}
