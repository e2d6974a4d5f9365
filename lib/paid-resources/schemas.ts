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

export const CreatePaidResourceBody = z
  .object({
    name: Name,
    description: Description.optional(),
    amount: Amount,
    currency: Currency,
    url: Url.optional(),
    content: Content.optional(),
    method: Method.default("GET"),
    replayable: z.boolean().default(true),
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .superRefine(oneTarget);
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
    currency: Currency.optional(),
    url: Url.optional(),
    content: Content.optional(),
    method: Method.optional(),
    replayable: z.boolean().optional(),
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
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
    /** Price in minor units of `currency`. */
    amount: z.number().int(),
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
    x402Url: z.string(),
    mppUrl: z.string(),
    livemode: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "PaidResource" });

export const PaidResourceList = listOf(PaidResourceObject, "PaidResourceList");
