// GET /mpp/openapi.json (public, limited per client IP; docs/mpp.md, "Discovery"): MPP's discovery document, an
// OpenAPI 3.1 document whose operations carry `x-payment-info` as mppx/discovery reads it, made by mppx's own
// generator (generateProxy) with one operation per listed hosted paid resource (/mpp/r/:id, its method) and then given
// what the resource's discovery metadata says: its input (query parameters, or the request body) and its answer's
// schema. A resource sold with mppx's `evm` charge method too (evm-charge.ts) lists its offers beside the service
// method's, one per network, as mppx's generator writes a method's offer (`offers`, from the method's canonical
// request). The REST API's document stays at /v1/openapi.json. Which mode it lists: lib/paid-resources/discovery.ts.
import { MPP_INTENT, MPP_METHOD_NAME } from "agent-payments-sdk/mpp";
import { generateProxy } from "mppx/discovery";
import { payableNetworks, type PayableNetwork } from "../chains/payable-networks";
import type { Db } from "../db";
import { env } from "../env";
import type { PaidResource } from "../generated/prisma/client";
import { discoveryLivemode, listedResources } from "../paid-resources/discovery";
import type { DiscoveryInput } from "../paid-resources/schemas";
import { evmOffered, issueEvmChallenge } from "./evm-charge";

/** The most resources one document lists (oldest first); the x402 discovery API pages through all of them. */
export const MPP_DISCOVERY_MAX_RESOURCES = 500;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const MEDIA_TYPES = { json: "application/json", "form-data": "multipart/form-data", text: "text/plain" } as const;

type Operation = Record<string, unknown> & { responses: Record<string, unknown> };

export async function mppDiscoveryDocument(db: Db): Promise<Record<string, unknown>> {
  const livemode = discoveryLivemode("mpp");
  const { rows } = await listedResources(db, livemode, { offset: 0, limit: MPP_DISCOVERY_MAX_RESOURCES });
  const evm = await evmOffersOf(db, rows, livemode);
  const document = generateProxy({
    info: { title: `${new URL(env.BASE_URL).hostname} paid resources (MPP)`, version: "1.0.0" },
    serviceInfo: { docs: { homepage: env.BASE_URL, apiReference: `${env.BASE_URL}/v1/openapi.json` } },
    routes: rows.map((resource) => ({
      method: resource.method,
      path: pathOf(resource),
      summary: resource.name,
      // What the 402's challenge asks (lib/mpp/challenge.ts): the service method's charge of this resource's price.
      payment: paymentInfo(
        {
          amount: String(resource.amount),
          currency: resource.currency.toLowerCase(),
          description: resource.description ?? resource.name,
          intent: MPP_INTENT,
          method: MPP_METHOD_NAME,
          recipient: resource.merchantId,
          externalId: resource.id,
        },
        evm.get(resource.id) ?? [],
      ),
      ...(BODY_METHODS.has(resource.method) ? { requestBody: requestBodyOf(resource) } : {}),
    })),
  }) as { paths: Record<string, Record<string, Operation>> };
  for (const resource of rows) describeOperation(document.paths[pathOf(resource)]![resource.method.toLowerCase()]!, resource);
  return { ...document, servers: [{ url: env.PAID_CONTENT_ORIGIN ?? env.BASE_URL }] };
}

/** One offer: flat (the service method alone), or `offers` with the evm method's beside it. */
function paymentInfo(service: Record<string, string>, evm: Record<string, unknown>[]) {
  return evm.length ? { offers: [service, ...evm] } : service;
}

/** The request fields an offer names itself, or drops (the method's details), as mppx's generator does. */
const RESERVED = new Set(["amount", "currency", "description", "methodDetails"]);

/**
 * The evm method's offers of each resource offered it (USD, fixed price): one per network its merchant is payable on,
 * from the canonical request of the challenge its 402 would issue there (amount in atomic units, the token, the recipient).
 */
async function evmOffersOf(db: Db, resources: PaidResource[], livemode: boolean) {
  const networksOf = new Map<string, Promise<PayableNetwork[]>>();
  const offers = new Map<string, Record<string, unknown>[]>();
  for (const resource of resources.filter(evmOffered)) {
    if (!networksOf.has(resource.merchantId)) networksOf.set(resource.merchantId, payableNetworks(db, resource.merchantId, livemode));
    const networks = await networksOf.get(resource.merchantId)!;
    offers.set(
      resource.id,
      networks.map((network) => {
        const { request, intent, method } = issueEvmChallenge(resource, network);
        const offer: Record<string, unknown> = {
          amount: request.amount,
          currency: request.currency,
          description: resource.description ?? resource.name,
          intent,
          method,
        };
        for (const [key, value] of Object.entries(request)) if (!RESERVED.has(key) && value !== undefined) offer[key] = value;
        return offer;
      }),
    );
  }
  return offers;
}

const pathOf = (resource: PaidResource) => `/mpp/r/${resource.id}`;

const discoveryOf = (resource: PaidResource) => (resource.discovery ?? {}) as DiscoveryInput;

function requestBodyOf(resource: PaidResource) {
  const discovery = discoveryOf(resource);
  const schema = discovery.inputSchema ?? { type: "object" };
  const media = { schema, ...(discovery.input ? { example: discovery.input } : {}) };
  return { required: true, content: { [MEDIA_TYPES[discovery.bodyType ?? "json"]]: media } };
}

/** The operation's description, query parameters (GET, DELETE: the input schema's properties) and its answer's schema. */
function describeOperation(operation: Operation, resource: PaidResource) {
  const discovery = discoveryOf(resource);
  operation.operationId = resource.id;
  if (resource.description) operation.description = resource.description;
  const { properties = {}, required } = (discovery.inputSchema ?? {}) as { properties?: Record<string, unknown>; required?: unknown };
  if (!BODY_METHODS.has(resource.method) && Object.keys(properties).length > 0)
    operation.parameters = Object.entries(properties).map(([name, schema]) => ({
      name,
      in: "query",
      required: Array.isArray(required) && required.includes(name),
      schema,
    }));
  const output = discovery.output;
  if (output?.example !== undefined || output?.schema !== undefined) {
    const media = {
      ...(output.schema ? { schema: output.schema } : {}),
      ...(output.example !== undefined ? { example: output.example } : {}),
    };
    operation.responses["200"] = { description: "The paid answer, with Payment-Receipt", content: { "application/json": media } };
  }
}
