// ACP's checkout requests at API-Version 2026-01-30 and 2026-04-17 as zod schemas, written from their JSON schemas
// (spec/<version>/json-schema/schema.agentic_checkout.json of the agentic-commerce-protocol repository, vendored in
// tests/fixtures/acp/), and the shapes of their answers as types. 2026-01-30 broke 2026-01-16: `items` became
// `line_items`, `currency` and `capabilities` are required, `payment_data` names a payment handler and carries an
// instrument with a credential. 2026-04-17 adds `order_notes` and `marketing_consents`. The answers are proved
// against the vendored JSON schemas themselves (tests/http/acp-versions.http.test.ts).
//
// This service's choices where the schema leaves room (docs/acp.md "Versions"):
//  - a line names a catalog product (`id`); `name` and `unit_amount` an agent sends are ignored (the catalog prices);
//    `quantity` (not in ACP's Item) is accepted, 1 by default, so an agent can buy more than one;
//  - `capabilities` values this service does not know are ignored, as the capability negotiation RFC requires;
//  - `fulfillment_groups`, `locale`, `timezone`, `quote_id`, `metadata`, `affiliate_attribution`, `risk_signals`,
//    `order_notes` and `marketing_consents` are accepted and not used: the service groups lines itself.
import { z } from "zod";
import { Address, AuthenticationResult, type AcpVersion } from "./schemas";

const str = (max = 1024) => z.string().max(max);
const Int = z.number().int();
const Loose = z.record(z.string(), z.unknown());

export const Address2026 = Address.extend({ company: str(256).optional() });

export const Buyer2026 = z
  .object({
    email: z.email().max(254),
    first_name: str(256).optional(),
    last_name: str(256).optional(),
    full_name: str(512).optional(),
    phone_number: str(32).optional(),
    customer_id: str(255).optional(),
    account_type: z.enum(["guest", "registered", "business"]).optional(),
    authentication_status: z.enum(["authenticated", "guest", "requires_signin"]).optional(),
  })
  .strict();

export const FulfillmentDetails2026 = z
  .object({
    name: str(256).optional(),
    phone_number: str(32).optional(),
    email: z.email().max(254).optional(),
    address: Address2026.optional(),
  })
  .strict();

export const LineItemRequest = z
  .object({ id: str(255).min(1), name: str().optional(), unit_amount: Int.optional(), quantity: Int.min(1).max(10_000).default(1) })
  .strict();

/** What an agent declares: unknown members and values are ignored (capability negotiation RFC 4.6.2). */
export const AgentCapabilities = z
  .object({
    payment: z
      .object({ handlers: z.array(z.object({ id: str(255).optional(), name: str(255).optional() }).loose()).max(50) })
      .loose()
      .optional(),
    interventions: z
      .object({ supported: z.array(str(64)).max(20).optional() })
      .loose()
      .optional(),
    extensions: z
      .array(z.union([str(255), z.object({ name: str(255) }).loose()]))
      .max(50)
      .optional(),
  })
  .loose();
export type AgentCapabilitiesInput = z.output<typeof AgentCapabilities>;

export const SELECTABLE_FULFILLMENT_TYPES = ["shipping", "digital", "pickup", "local_delivery"] as const;
export const SelectedFulfillmentOption2026 = z
  .object({ type: z.enum(SELECTABLE_FULFILLMENT_TYPES), option_id: str(255), item_ids: z.array(str(255)).max(100) })
  .strict();

const FulfillmentGroupRequest = z.object({ id: str(255), item_ids: z.array(str(255)).max(100), destination_type: str(32) }).loose();
const DiscountCodes = z.array(str(64).min(1)).max(10);

const sessionFields = {
  buyer: Buyer2026.optional(),
  fulfillment_details: FulfillmentDetails2026.optional(),
  fulfillment_groups: z.array(FulfillmentGroupRequest).max(100).optional(),
  /** The discount extension's codes (and `coupons`, the older name some agents send). */
  discounts: z.object({ codes: DiscountCodes.optional() }).strict().optional(),
  coupons: DiscountCodes.optional(),
};

const create = {
  ...sessionFields,
  line_items: z.array(LineItemRequest).min(1).max(100),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO-4217 code"),
  capabilities: AgentCapabilities,
  affiliate_attribution: Loose.optional(),
  locale: str(35).optional(),
  timezone: str(64).optional(),
  quote_id: str(255).optional(),
  metadata: Loose.optional(),
};
const update = {
  ...sessionFields,
  line_items: z.array(LineItemRequest).min(1).max(100).optional(),
  selected_fulfillment_options: z.array(SelectedFulfillmentOption2026).max(10).optional(),
};

const PaymentData2026 = z
  .object({
    handler_id: str(255).min(1),
    instrument: z.object({ type: str(64), credential: z.object({ type: str(64), token: str(255).min(1) }).loose() }).loose(),
    billing_address: Address2026.optional(),
  })
  .strict();

/**
 * 3-D Secure's outcome names from 2026-01-30 on (the same list at 2026-04-17): 2026-01-16's `attempt` became
 * `attempt_acknowledged`, and `failed`/`unavailable` gave way to finer reasons (lib/acp/three-ds.ts knows both sets).
 */
const AuthenticationResult2026 = AuthenticationResult.extend({
  outcome: z.enum([
    "abandoned",
    "attempt_acknowledged",
    "authenticated",
    "canceled",
    "denied",
    "informational",
    "internal_error",
    "not_supported",
    "processing_error",
    "rejected",
  ]),
});

const complete = {
  buyer: Buyer2026.optional(),
  payment_data: PaymentData2026,
  authentication_result: AuthenticationResult2026.optional(),
  affiliate_attribution: Loose.optional(),
  risk_signals: Loose.optional(),
};

const orderNotes = { order_notes: str(5000).optional() };
const marketingConsents = {
  marketing_consents: z
    .array(z.object({ channel: str(64), opted_in: z.boolean() }).loose())
    .max(20)
    .optional(),
};

export const CreateRequest = {
  "2026-01-30": z.object(create).strict(),
  "2026-04-17": z.object({ ...create, ...orderNotes }).strict(),
} as const;
export const UpdateRequest = {
  "2026-01-30": z.object(update).strict(),
  "2026-04-17": z.object({ ...update, ...orderNotes }).strict(),
} as const;
export const CompleteRequest = {
  "2026-01-30": z.object(complete).strict(),
  "2026-04-17": z.object({ ...complete, ...orderNotes, ...marketingConsents }).strict(),
} as const;

export type HandlerVersion = Exclude<AcpVersion, "2026-01-16">;
export type CreateInput2026 = z.output<(typeof CreateRequest)["2026-01-30"]>;
export type UpdateInput2026 = z.output<(typeof UpdateRequest)["2026-01-30"]>;
export type CompleteInput2026 = z.output<(typeof CompleteRequest)["2026-01-30"]>;
export type LineItemInput = z.output<typeof LineItemRequest>;
export type SelectedOption2026 = z.output<typeof SelectedFulfillmentOption2026>;

/** The discount codes a create or update asks for (`discounts.codes`, or `coupons`), undefined when it names none. */
export function discountCodesOf(input: { discounts?: { codes?: string[] }; coupons?: string[] }): string[] | undefined {
  const codes = input.discounts?.codes ?? input.coupons;
  return codes && [...new Set(codes)];
}
