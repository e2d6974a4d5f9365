// x402 message shapes (v1 and v2) as the facilitator and the hosted resources read them. Unknown fields are
// kept (passthrough): the protocol adds optional ones, and a v2 `accepted` is an echo compared field by field.
import { z } from "zod";

const Text = z.string().max(2048);
/** A uint256 in decimal, as x402 sends amounts and timestamps. */
const Uint = z.string().regex(/^\d{1,78}$/, "must be an unsigned integer in decimal");
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 20-byte hex address");
const Extra = z.record(z.string().max(128), z.unknown()).optional();

export const RequirementsV2 = z
  .object({
    scheme: Text,
    network: Text,
    amount: Uint,
    asset: Text,
    payTo: Text,
    maxTimeoutSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400 * 365),
    extra: Extra,
  })
  .passthrough();
export type RequirementsV2 = z.output<typeof RequirementsV2>;

export const RequirementsV1 = z
  .object({
    scheme: Text,
    network: Text,
    maxAmountRequired: Uint,
    asset: Text,
    payTo: Text,
    maxTimeoutSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400 * 365),
    resource: Text.optional(),
    description: z.string().max(4096).optional(),
    mimeType: Text.optional(),
    extra: Extra,
  })
  .passthrough();
export type RequirementsV1 = z.output<typeof RequirementsV1>;

export const PayloadV2 = z
  .object({
    x402Version: z.literal(2),
    accepted: RequirementsV2,
    payload: z.unknown(),
    resource: z
      .object({ url: Text.optional(), description: z.string().max(4096).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type PayloadV2 = z.output<typeof PayloadV2>;

export const PayloadV1 = z
  .object({
    x402Version: z.literal(1),
    scheme: Text,
    network: Text,
    payload: z.unknown(),
  })
  .passthrough();
export type PayloadV1 = z.output<typeof PayloadV1>;

/** The `exact` EVM payload: an EIP-3009 TransferWithAuthorization and its EIP-712 signature. */
export const ExactEvmPayload = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]{2,4096}$/, "must be a hex signature"),
  authorization: z.object({
    from: Address,
    to: Address,
    value: Uint,
    validAfter: Uint,
    validBefore: Uint,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of hex"),
  }),
});
export type ExactEvmPayload = z.output<typeof ExactEvmPayload>;

/** Body of POST /x402/verify and /x402/settle (both versions). */
export const FacilitatorBody = z.object({
  x402Version: z.number().int(),
  paymentPayload: z.record(z.string(), z.unknown()),
  paymentRequirements: z.record(z.string(), z.unknown()),
});
