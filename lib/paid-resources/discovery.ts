// Discovery of hosted paid resources (docs/x402.md and docs/mpp.md, "Discovery"): a resource a merchant `listed` is in
// this deployment's catalogs (GET /x402/discovery/resources, x402's facilitator discovery API; GET /mpp/openapi.json,
// MPP's OpenAPI discovery document), and its x402 402 declares the `bazaar` extension made from its `discovery`
// metadata by @x402/extensions' own declareDiscoveryExtension (and the resource server extension's enrichment, which
// names the method), checked at creation and update by the library's own validateDiscoveryExtension.
//
// Which mode a catalog lists (never both: a catalog mixing test money and real money would mislead its buyers): live
// resources when the deployment takes live payments over the protocol (x402: X402_RPC_URLS names a chain; MPP: a
// LIVE_RAIL), else test resources (a development or staging deployment, whose catalog is then usable end to end).
import {
  bazaarResourceServerExtension,
  declareDiscoveryExtension,
  validateDiscoveryExtension,
  type DiscoveryExtension,
} from "@x402/extensions/bazaar";
import { liveNetworks } from "../chains/live-networks";
import type { Db } from "../db";
import { env } from "../env";
import { ValidationError } from "../errors";
import type { PaidResource, Prisma } from "../generated/prisma/client";
import type { DiscoveryInput } from "./schemas";

/** Methods whose input is a body (the bazaar extension's body methods); GET and DELETE take query parameters. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * The resource's `bazaar` extension ({ info, schema }), as @x402/extensions declares it for its method. Without
 * discovery metadata: the method and an empty input. The paid content is never an example (it is what is sold).
 */
export function bazaarExtension(resource: { method: string; discovery: unknown }, path: string): DiscoveryExtension {
  const discovery = (resource.discovery ?? {}) as DiscoveryInput;
  const input = {
    ...(discovery.input ? { input: discovery.input } : {}),
    ...(discovery.inputSchema ? { inputSchema: discovery.inputSchema } : {}),
  };
  const example = discovery.output?.example;
  const output =
    example !== undefined ? { output: { example, ...(discovery.output?.schema ? { schema: discovery.output.schema } : {}) } } : {};
  const declared = BODY_METHODS.has(resource.method)
    ? declareDiscoveryExtension({ bodyType: discovery.bodyType ?? "json", ...input, ...output })
    : declareDiscoveryExtension({ ...input, ...output });
  // The resource server extension's own enrichment names the method in `info` and `schema` (no route template: every
  // resource is a path of its own, and a template would make a catalog fold them into one).
  const context = { method: resource.method, path, adapter: { getPath: () => path } };
  return bazaarResourceServerExtension.enrichDeclaration!(declared.bazaar, context) as DiscoveryExtension;
}

/** 400 when the metadata does not make a valid bazaar extension for this method (an example outside its schema, a bad schema). */
export function checkDiscovery(method: string, discovery: DiscoveryInput | null | undefined): void {
  if (!discovery) return;
  const result = validateDiscoveryExtension(bazaarExtension({ method, discovery }, "/"));
  if (!result.valid)
    throw new ValidationError("discovery does not make a valid bazaar extension: the examples must satisfy their JSON Schemas.", [
      { path: "discovery", message: (result.errors ?? ["invalid"]).join("; ").slice(0, 500) },
    ]);
}

/** The mode a protocol's catalog lists (see the head of this file). */
export function discoveryLivemode(protocol: "x402" | "mpp"): boolean {
  return protocol === "x402" ? liveNetworks().length > 0 : env.LIVE_RAIL !== "none";
}

export interface ListedQuery {
  offset: number;
  limit: number;
  /** x402: the live networks a merchant must have a payout address on (one of them), and USD prices only. */
  x402?: { networks: string[] | null; scheme?: string; merchantIds?: string[] };
}

/** One page of the deployment's listed, active resources of a mode, oldest first (stable under additions), and their total. */
export async function listedResources(db: Db, livemode: boolean, query: ListedQuery): Promise<{ rows: PaidResource[]; total: number }> {
  const where: Prisma.PaidResourceWhereInput = { listed: true, active: true, livemode };
  if (query.x402) {
    where.currency = "USD"; // x402 pays in USDC
    const networks = query.x402.networks;
    if (networks !== null) where.merchant = { x402PayoutAddresses: { some: { replacedAt: null, network: { in: networks } } } };
    if (query.x402.scheme !== undefined) where.scheme = query.x402.scheme;
    if (query.x402.merchantIds !== undefined) where.merchantId = { in: query.x402.merchantIds }; // the payTo filter's
  } else where.scheme = "exact"; // MPP sells fixed prices only (a usage-priced resource is x402 upto's)
  const [rows, total] = await Promise.all([
    db.paidResource.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: query.offset, take: query.limit }),
    db.paidResource.count({ where }),
  ]);
  return { rows, total };
}
