// Bodies and queries of /v1/paid_resources (also answering at /v1/x402/resources; docs/x402.md).
import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";

/** The price in minor units of `currency` (USD cents for x402: 1 cent = 10,000 atomic USDC units). */
const Amount = z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT);
const Name = z.string().trim().min(1, "must not be empty").max(256);
const Description = z.string().max(1000);
const Url = z.string().min(1).max(2048);

/** The one method payers use (another answers 405 before any payment is read); the forward uses it too. */
export const PAID_RESOURCE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type PaidResourceMethod = (typeof PAID_RESOURCE_METHODS)[number];
const Method = z.enum(PAID_RESOURCE_METHODS, { message: `must be one of: ${PAID_RESOURCE_METHODS.join(", ")}` });

/** Largest `content` kept (its JSON text), returned as is once paid. */
export const MAX_CONTENT_BYTES = 64 * 1024;
const Content = z
  .unknown()
  .refine((value) => value !== undefined && value !== null, { message: "must be a JSON value (not null)" })
  .refine((value) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8") <= MAX_CONTENT_BYTES, {
    message: `at most ${MAX_CONTENT_BYTES} bytes of JSON`,
  });

/**
 * Discovery metadata (docs/x402.md, "Discovery"), named as @x402/extensions' bazaar declaration takes it
 * (`declareDiscoveryExtension`): an example input (the query parameters of GET and DELETE, the body of POST, PUT and
 * PATCH) and its JSON Schema, how a body is sent, and the output's example and its JSON Schema. Checked at creation and
 * update with the library's own validator (discovery.ts): the examples must satisfy their schemas.
 */
export const DISCOVERY_BODY_TYPES = ["json", "form-data", "text"] as const;
/** Largest discovery metadata kept (its JSON text): the 402 carries it in PAYMENT-REQUIRED, and a payer echoes it back. */
export const MAX_DISCOVERY_BYTES = 4 * 1024;
const JsonSchemaObject = z.record(z.string(), z.unknown());
const DiscoveryFields = z.object({
  /** An example input: the query parameters (GET, DELETE) or the body's fields (POST, PUT, PATCH). */
  input: z.record(z.string(), z.unknown()).optional(),
  /** The input's JSON Schema (an object schema: its properties are the query parameters or the body's fields). */
  inputSchema: JsonSchemaObject.optional(),
  /** How the body is sent (POST, PUT, PATCH only; default json). */
  bodyType: z.enum(DISCOVERY_BODY_TYPES).optional(),
  /** The paid answer: an example (an object) and its JSON Schema. The bazaar extension declares an output by its example. */
  output: z.object({ example: z.unknown().optional(), schema: JsonSchemaObject.optional() }).strict().optional(),
});
export const Discovery = DiscoveryFields.strict()
  .refine((value) => Buffer.byteLength(JSON.stringify(value), "utf8") <= MAX_DISCOVERY_BYTES, {
    message: `at most ${MAX_DISCOVERY_BYTES} bytes of JSON`,
  })
  .refine((value) => value.output?.schema === undefined || value.output.example !== undefined, {
    message: "output.schema needs output.example (the bazaar extension declares an output by its example)",
    path: ["output", "example"],
  });
export type DiscoveryInput = z.output<typeof Discovery>;

const oneTarget = (value: { url?: unknown; content?: unknown }, ctx: z.RefinementCtx) => {
  const given = [value.url !== undefined && value.url !== null, value.content !== undefined && value.content !== null].filter(
    Boolean,
  ).length;
  if (given !== 1)
    ctx.addIssue({
      code: "custom",
      path: ["url"],
      message: "give exactly one of url (forward target) and content (JSON returned once paid)",
    });
};

/** How a resource is priced over x402 (docs/x402.md, "Usage-priced resources"). */
export const PAID_RESOURCE_SCHEMES = ["exact", "upto"] as const;
const Scheme = z.enum(PAID_RESOURCE_SCHEMES, { message: `must be one of: ${PAID_RESOURCE_SCHEMES.join(", ")}` });

/** An upto resource: forwarded (its server reports the usage), a unit price and a maximum of at least one unit; exact: an amount. */
const pricing = (
  value: { scheme?: string; amount?: unknown; maxAmount?: unknown; unitAmount?: unknown; url?: unknown; currency?: string },
  ctx: z.RefinementCtx,
) => {
  if (value.scheme !== "upto") {
    if (value.amount === undefined)
      ctx.addIssue({ code: "custom", path: ["amount"], message: "required (the price of an exact resource)" });
    for (const field of ["maxAmount", "unitAmount"] as const)
      if (value[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: 'only for scheme "upto"' });
    return;
  }
  if (value.amount !== undefined)
    ctx.addIssue({ code: "custom", path: ["amount"], message: 'not for scheme "upto" (its amount is maxAmount)' });
  if (value.url === undefined || value.url === null)
    ctx.addIssue({ code: "custom", path: ["url"], message: 'scheme "upto" forwards to url (its answer reports X-Usage-Units)' });
  if (value.maxAmount === undefined) ctx.addIssue({ code: "custom", path: ["maxAmount"], message: 'required for scheme "upto"' });
  if (value.unitAmount === undefined) ctx.addIssue({ code: "custom", path: ["unitAmount"], message: 'required for scheme "upto"' });
  if (typeof value.maxAmount === "number" && typeof value.unitAmount === "number" && value.maxAmount < value.unitAmount)
    ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "must be at least unitAmount (one unit)" });
  if (value.currency !== undefined && value.currency !== "USD")
    ctx.addIssue({ code: "custom", path: ["currency"], message: UPTO_CURRENCY_MESSAGE });
};

/** Only x402 sells upto, and it pays in USDC: an upto resource in another currency could never be sold. */
export const UPTO_CURRENCY_MESSAGE = 'must be USD for scheme "upto" (sold over x402 only, which pays in USDC)';

export const CreatePaidResourceBody = z
  .object({
    name: Name,
    description: Description.optional(),
    /** The price of an `exact` resource (not given for `upto`: its amount is maxAmount). */
    amount: Amount.optional(),
    /** exact (default): the payer pays amount. upto: the payer authorizes maxAmount and pays the usage its url reports. */
    scheme: Scheme.default("exact"),
    /** upto: the most one payment may be charged (minor units). */
    maxAmount: Amount.optional(),
    /** upto: the price of one unit of X-Usage-Units (minor units). */
    unitAmount: Amount.optional(),
    currency: Currency,
    url: Url.optional(),
    content: Content.optional(),
    method: Method.default("GET"),
    replayable: z.boolean().default(true),
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
    /** Listed in this deployment's discovery (GET /x402/discovery/resources, /mpp/openapi.json); default false. */
    listed: z.boolean().default(false),
    discovery: Discovery.optional(),
  })
  .strict()
  .superRefine(oneTarget)
  .superRefine(pricing);
export type CreatePaidResourceInput = z.output<typeof CreatePaidResourceBody>;

/**
 * Every field optional; `description: null` clears it. Giving `url` replaces `content` and the other way
 * round (a resource always has exactly one of the two). Sales already made keep what they were sold at.
 */
export const UpdatePaidResourceBody = z
  .object({
    name: Name.optional(),
    description: Description.nullable().optional(),
    amount: Amount.optional(),
    /** upto resources only (the scheme itself is set at creation). */
    maxAmount: Amount.optional(),
    unitAmount: Amount.optional(),
    currency: Currency.optional(),
    url: Url.optional(),
    content: Content.optional(),
    method: Method.optional(),
    replayable: z.boolean().optional(),
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
    listed: z.boolean().optional(),
    /** null clears it. */
    discovery: Discovery.nullable().optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.url !== undefined && value.content !== undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: "give at most one of url and content" });
  });
export type UpdatePaidResourceInput = z.output<typeof UpdatePaidResourceBody>;

export const ListPaidResourcesQuery = ListQuery.extend({
  active: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
}).strict();
export type ListPaidResourcesInput = z.output<typeof ListPaidResourcesQuery>;

export const PAID_RESOURCE_ID = /^xr_[0-9A-Za-z]{1,64}$/;

// Responses.

export const PaidResourceObject = z
  .object({
    id: z.string(),
    object: z.literal("paid_resource"),
    name: z.string(),
    description: z.string().nullable(),
    /** Price in minor units of `currency` (upto: the maximum, maxAmount). */
    amount: z.number().int(),
    /** exact: the payer pays amount; upto: the payer authorizes maxAmount and pays X-Usage-Units x unitAmount (docs/x402.md). */
    scheme: z.enum(PAID_RESOURCE_SCHEMES),
    /** upto: the most one payment is charged (else null). */
    maxAmount: z.number().int().nullable(),
    /** upto: the price of one unit the merchant's server reports in X-Usage-Units (else null). */
    unitAmount: z.number().int().nullable(),
    currency: z.string(),
    /** Forward target of a paid request (null when `content` is served). */
    url: z.string().nullable(),
    /** JSON returned once paid (null when the request is forwarded to `url`). */
    content: z.unknown(),
    /** The one HTTP method payers use (another answers 405); a forward uses it too. */
    method: z.enum(PAID_RESOURCE_METHODS),
    /**
     * Whether the paid answer is kept (sealed, PAID_REPLAY_WINDOW_SECONDS) so that the same payment sent again after a
     * lost answer gets it again; false: the answer is never stored, and a replay is 409 `replay_not_stored`.
     */
    replayable: z.boolean(),
    /**
     * Signs each forwarded request (x-service-signature over method, path and query, x-payment-intent and body):
     * only in the response that created or rotated it.
     */
    forwardingSecret: z.string().optional(),
    /** False for a resource made before forwards were signed: its forwards are unsigned until a rotation. */
    forwardingSecretSet: z.boolean(),
    /** After a rotation: until when the previous forwarding secret still signs beside the current one (else null). */
    previousForwardingSecretExpiresAt: Timestamp.nullable(),
    metadata: StoredMetadata,
    active: z.boolean(),
    /** Listed in this deployment's discovery (GET /x402/discovery/resources, /mpp/openapi.json; docs/x402.md, "Discovery"). */
    listed: z.boolean(),
    /** Discovery metadata (the x402 402's `bazaar` extension, the MPP discovery document), or null. */
    discovery: DiscoveryFields.nullable(),
    x402Url: z.string(),
    mppUrl: z.string(),
    livemode: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "PaidResource" });

export const PaidResourceList = listOf(PaidResourceObject, "PaidResourceList");
