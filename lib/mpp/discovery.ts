// GET /mpp/openapi.json (public, limited per client IP; docs/mpp.md, "Discovery"): MPP's discovery document, an
// OpenAPI 3.1 document whose operations carry `x-payment-info` as mppx/discovery reads it, made by mppx's own
// generator (generateProxy) with one operation per listed hosted paid resource (/mpp/r/:id, its method) and then given
// what the resource's discovery metadata says: its input (query parameters, or the request body) and its answer's
// schema. The REST API's document stays at /v1/openapi.json. Which mode it lists: lib/paid-resources/discovery.ts.
import { MPP_INTENT, MPP_METHOD_NAME } from "agent-payments-sdk/mpp";
import { generateProxy } from "mppx/discovery";
import type { Db } from "../db";
import { env } from "../env";
import type { PaidResource } from "../generated/prisma/client";
import { discoveryLivemode, listedResources } from "../paid-resources/discovery";
import type { DiscoveryInput } from "../paid-resources/schemas";

/** The most resources one document lists (oldest first); the x402 discovery API pages through all of them. */
export const MPP_DISCOVERY_MAX_RESOURCES = 500;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const MEDIA_TYPES = { json: "application/json", "form-data": "multipart/form-data", text: "text/plain" } as const;

type Operation = Record<string, unknown> & { responses: Record<string, unknown> };

export async function mppDiscoveryDocument(db: Db): Promise<Record<string, unknown>> {
  const { rows } = await listedResources(db, discoveryLivemode("mpp"), { offset: 0, limit: MPP_DISCOVERY_MAX_RESOURCES });
  const document = generateProxy({
    info: { title: `${new URL(env.BASE_URL).hostname} paid resources (MPP)`, version: "1.0.0" },
    serviceInfo: { docs: { homepage: env.BASE_URL, apiReference: `${env.BASE_URL}/v1/openapi.json` } },
    routes: rows.map((resource) => ({
      method: resource.method,
      path: pathOf(resource),
      summary: resource.name,
      // What the 402's challenge asks (lib/mpp/challenge.ts): the service method's charge of this resource's price.
      payment: {
        amount: String(resource.amount),
        currency: resource.currency.toLowerCase(),
        description: resource.description ?? resource.name,
        intent: MPP_INTENT,
        method: MPP_METHOD_NAME,
        recipient: resource.merchantId,
        externalId: resource.id,
      },
      ...(BODY_METHODS.has(resource.method) ? { requestBody: requestBodyOf(resource) } : {}),
    })),
  }) as { paths: Record<string, Record<string, Operation>> };
  for (const resource of rows) describeOperation(document.paths[pathOf(resource)]![resource.method.toLowerCase()]!, resource);
  return { ...document, servers: [{ url: env.PAID_CONTENT_ORIGIN ?? env.BASE_URL }] };
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
