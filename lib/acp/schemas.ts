// The Agentic Commerce Protocol's objects as zod schemas, written from the field tables of ACP's checkout RFC
// (rfcs/rfc.agentic_checkout.md), delegated-payment RFC (rfcs/rfc.delegate_payment.md) and their JSON schemas
// for API-Version 2026-01-16 (spec/2026-01-16/json-schema/schema.agentic_checkout.json,
// schema.delegate_payment.json, openapi.agentic_checkout_webhook.yaml) in the agentic-commerce-protocol
// repository. Statuses and enums are exactly the listed ones; objects whose schema says
// `additionalProperties: false` are strict. ONE module: the handlers (lib/acp/*) are typed by these, and the
// test suite validates every ACP response against them (tests/http/acp*.http.test.ts). docs/acp.md.
import { z } from "zod";

/**
 * The API-Version values this service answers (ACP dates). 2026-01-16 is answered with this module's objects;
 * 2026-01-30 and 2026-04-17 (payment handlers, capabilities, extensions) with lib/acp/schemas-2026.ts.
 */
export const SUPPORTED_API_VERSIONS = ["2026-01-16", "2026-01-30", "2026-04-17"] as const;
export type AcpVersion = (typeof SUPPORTED_API_VERSIONS)[number];

const str = (max = 1024) => z.string().max(max);
const Int = z.number().int();

// ---- Shared -------------------------------------------------------------------------------------------

export const Address = z
  .object({
    name: str(256),
    line_one: str(60),
    line_two: str(60).optional(),
    city: str(60),
    state: str(64),
    country: z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO-3166-1 alpha-2 code"),
    postal_code: str(20),
  })
  .strict();

export const Buyer = z
  .object({
    first_name: str(256),
    last_name: str(256),
    email: z.email().max(254),
    phone_number: str(32).optional(),
  })
  .strict();

export const FulfillmentDetails = z
  .object({
    name: str(256).optional(),
    phone_number: str(32).optional(),
    email: z.email().max(254).optional(),
    address: Address.optional(),
  })
  .strict();

/** A cart entry as the agent names it: `id` is the merchant's product (prd_...). */
export const Item = z.object({ id: str(255).min(1), quantity: Int.min(1).max(10_000) }).strict();

// ---- Checkout session (response) ----------------------------------------------------------------------

export const CHECKOUT_SESSION_STATUSES = [
  "not_ready_for_payment",
  "ready_for_payment",
  "completed",
  "canceled",
  "in_progress",
  "authentication_required",
] as const;
export const CheckoutSessionStatus = z.enum(CHECKOUT_SESSION_STATUSES);

export const Disclosure = z
  .object({ type: z.enum(["disclaimer"]), content_type: z.enum(["plain", "markdown"]), content: z.string() })
  .strict();
export const CustomAttribute = z.object({ display_name: z.string(), value: z.string() }).strict();

export const LineItem = z
  .object({
    id: z.string(),
    item: Item,
    base_amount: Int,
    discount: Int,
    subtotal: Int,
    tax: Int,
    total: Int,
    name: z.string().optional(),
    description: z.string().optional(),
    images: z.array(z.url()).optional(),
    unit_amount: Int.optional(),
    disclosures: z.array(Disclosure).optional(),
    custom_attributes: z.array(CustomAttribute).optional(),
    marketplace_seller_details: z.object({ name: z.string() }).strict().optional(),
  })
  .strict();

export const TOTAL_TYPES = ["items_base_amount", "items_discount", "subtotal", "discount", "fulfillment", "tax", "fee", "total"] as const;
export const Total = z
  .object({ type: z.enum(TOTAL_TYPES), display_text: z.string(), amount: Int, description: z.string().optional() })
  .strict();

export const FulfillmentOptionShipping = z
  .object({
    type: z.literal("shipping"),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    carrier: z.string().optional(),
    earliest_delivery_time: z.iso.datetime({ offset: true }).optional(),
    latest_delivery_time: z.iso.datetime({ offset: true }).optional(),
    totals: z.array(Total),
  })
  .strict();
export const FulfillmentOptionDigital = z
  .object({ type: z.literal("digital"), id: z.string(), title: z.string(), description: z.string().optional(), totals: z.array(Total) })
  .strict();
export const FulfillmentOption = z.discriminatedUnion("type", [FulfillmentOptionShipping, FulfillmentOptionDigital]);

const SelectedOptionBody = z.object({ option_id: str(255), item_ids: z.array(str(255)).max(100) }).strict();
export const SelectedFulfillmentOption = z.discriminatedUnion("type", [
  z.object({ type: z.literal("shipping"), shipping: SelectedOptionBody }).strict(),
  z.object({ type: z.literal("digital"), digital: SelectedOptionBody }).strict(),
]);

export const MESSAGE_ERROR_CODES = ["missing", "invalid", "out_of_stock", "payment_declined", "requires_sign_in", "requires_3ds"] as const;
export const MessageInfo = z
  .object({ type: z.literal("info"), param: z.string().optional(), content_type: z.enum(["plain", "markdown"]), content: z.string() })
  .strict();
export const MessageError = z
  .object({
    type: z.literal("error"),
    code: z.enum(MESSAGE_ERROR_CODES),
    param: z.string().optional(),
    content_type: z.enum(["plain", "markdown"]),
    content: z.string(),
  })
  .strict();
export const Message = z.discriminatedUnion("type", [MessageInfo, MessageError]);

export const Link = z.object({ type: z.enum(["terms_of_use", "privacy_policy", "return_policy"]), url: z.url() }).strict();

export const PaymentProvider = z
  .object({
    provider: z.enum(["stripe"]),
    merchant_id: z.string(),
    supported_payment_methods: z.array(
      z.object({ type: z.enum(["card"]), supported_card_networks: z.array(z.enum(["amex", "discover", "mastercard", "visa"])) }).strict(),
    ),
  })
  .strict();

/** 3-D Secure: what the seller gives the agent to authenticate with (the session's status is then authentication_required). */
export const AuthenticationMetadata = z
  .object({
    channel: z
      .object({
        type: z.enum(["browser"]),
        browser: z
          .object({
            accept_header: z.string(),
            ip_address: z.string(),
            javascript_enabled: z.boolean(),
            language: z.string(),
            user_agent: z.string(),
            color_depth: Int.optional(),
            java_enabled: z.boolean().optional(),
            screen_height: Int.optional(),
            screen_width: Int.optional(),
            timezone_offset: Int.optional(),
          })
          .strict(),
      })
      .strict(),
    acquirer_details: z
      .object({
        acquirer_bin: z.string(),
        acquirer_country: z.string(),
        acquirer_merchant_id: z.string(),
        merchant_name: z.string(),
        requestor_id: z.string().optional(),
      })
      .strict(),
    directory_server: z.enum(["american_express", "mastercard", "visa"]),
    flow_preference: z
      .object({
        type: z.enum(["challenge", "frictionless"]),
        challenge: z.record(z.string(), z.unknown()).optional(),
        frictionless: z.record(z.string(), z.unknown()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const AuthenticationProvider = z
  .object({ provider: z.enum(["stripe", "adyen"]), merchant_id: z.string(), supported_authentication_methods: z.array(z.enum(["3ds"])) })
  .strict();

/**
 * ACP's Order, plus `serviceReceipt`: the service's signed receipt of the payment (a compact JWS; docs/receipts.md), the
 * one field beyond ACP's closed schema, as the contract requires of the completed order ("Receipts").
 */
export const Order = z
  .object({ id: z.string(), checkout_session_id: z.string(), permalink_url: z.url(), serviceReceipt: z.string().optional() })
  .strict();

export const CheckoutSession = z
  .object({
    id: z.string(),
    buyer: Buyer.optional(),
    payment_provider: PaymentProvider.optional(),
    authentication_provider: AuthenticationProvider.optional(),
    status: CheckoutSessionStatus,
    currency: z.string(),
    line_items: z.array(LineItem),
    fulfillment_details: FulfillmentDetails.optional(),
    fulfillment_options: z.array(FulfillmentOption),
    selected_fulfillment_options: z.array(SelectedFulfillmentOption).optional(),
    totals: z.array(Total),
    messages: z.array(Message),
    links: z.array(Link),
    authentication_metadata: AuthenticationMetadata.optional(),
    order: Order.optional(),
  })
  .strict();
export type CheckoutSessionObject = z.output<typeof CheckoutSession>;

/** The answer of complete: a session with its order. */
export const CheckoutSessionWithOrder = CheckoutSession.extend({ order: Order });

// ---- Checkout session (requests) ----------------------------------------------------------------------

const Items = z.array(Item).min(1).max(100);

export const CheckoutSessionCreateRequest = z
  .object({
    buyer: Buyer.optional(),
    items: Items,
    fulfillment_details: FulfillmentDetails.optional(),
    affiliate_attribution: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type CreateSessionInput = z.output<typeof CheckoutSessionCreateRequest>;

export const CheckoutSessionUpdateRequest = z
  .object({
    buyer: Buyer.optional(),
    items: Items.optional(),
    fulfillment_details: FulfillmentDetails.optional(),
    selected_fulfillment_options: z.array(SelectedFulfillmentOption).max(10).optional(),
  })
  .strict();
export type UpdateSessionInput = z.output<typeof CheckoutSessionUpdateRequest>;

/**
 * `provider` names the PSP that vaulted the token: ACP 2026-01-16 lists only "stripe"; this service is the PSP
 * here, so it accepts "service" and takes "stripe" as its alias (docs/acp.md).
 */
export const PaymentData = z
  .object({ token: str(255).min(1), provider: z.enum(["stripe", "service"]), billing_address: Address.optional() })
  .strict();

export const AuthenticationResult = z
  .object({
    outcome: z.enum(["authenticated", "failed", "unavailable", "rejected", "attempt"]),
    outcome_details: z
      .object({
        three_ds_cryptogram: z.string(),
        electronic_commerce_indicator: z.string(),
        transaction_id: z.string(),
        version: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const CheckoutSessionCompleteRequest = z
  .object({
    buyer: Buyer.optional(),
    payment_data: PaymentData,
    affiliate_attribution: z.record(z.string(), z.unknown()).optional(),
    authentication_result: AuthenticationResult.optional(),
  })
  .strict();
export type CompleteSessionInput = z.output<typeof CheckoutSessionCompleteRequest>;

/** reason_code is an extensible enum (servers SHOULD accept unknown values as "other"): any short string. */
export const CancelSessionRequest = z
  .object({
    intent_trace: z
      .object({
        reason_code: str(64),
        trace_summary: str(500).optional(),
        metadata: z.record(z.string(), z.union([z.string().max(500), z.number(), z.boolean()])).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

// ---- Errors -------------------------------------------------------------------------------------------

/** The checkout API's flat error; `code` is implementation-defined (its well-known values: docs/acp.md). */
export const ERROR_TYPES = ["invalid_request", "request_not_idempotent", "processing_error", "service_unavailable"] as const;
export const FlatError = z
  .object({
    type: z.enum(ERROR_TYPES),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    supported_versions: z.array(z.string()).optional(),
  })
  .strict();
export type AcpError = z.output<typeof FlatError>;

// ---- Delegated payment ---------------------------------------------------------------------------------

export const PaymentMethodCard = z
  .object({
    type: z.literal("card"),
    card_number_type: z.enum(["fpan", "network_token"]),
    number: str(64).min(1),
    exp_month: z
      .string()
      .regex(/^(0[1-9]|1[0-2])$/, "must be 01..12")
      .optional(),
    exp_year: z
      .string()
      .regex(/^\d{4}$/, "must be a four-digit year")
      .optional(),
    name: str(256).optional(),
    cvc: z.string().max(4).optional(),
    cryptogram: str(256).optional(),
    eci_value: z.string().max(2).optional(),
    checks_performed: z
      .array(z.enum(["avs", "cvv", "ani", "auth0"]))
      .max(4)
      .optional(),
    iin: z.string().max(8).optional(),
    display_card_funding_type: z.enum(["credit", "debit", "prepaid"]),
    display_wallet_type: str(64).optional(),
    display_brand: str(64).optional(),
    display_last4: z.string().max(4).optional(),
    metadata: z.record(str(40), str(500)),
    virtual: z.boolean().optional(),
  })
  .strict();

export const Allowance = z
  .object({
    reason: z.enum(["one_time"]),
    max_amount: Int.min(1).max(99_999_999),
    currency: z.string().regex(/^[a-z]{3}$/, "must be a lower-case ISO-4217 code"),
    checkout_session_id: str(255).min(1),
    merchant_id: str(256).min(1),
    expires_at: z.iso.datetime({ offset: true, message: "must be an RFC 3339 timestamp" }),
  })
  .strict();

export const RiskSignal = z
  .object({ type: z.enum(["card_testing"]), score: Int, action: z.enum(["blocked", "manual_review", "authorized"]) })
  .strict();

export const DelegatePaymentRequest = z
  .object({
    payment_method: PaymentMethodCard,
    allowance: Allowance,
    billing_address: Address.optional(),
    risk_signals: z.array(RiskSignal).min(1).max(20),
    metadata: z.record(str(40), str(500)),
  })
  .strict();
export type DelegatePaymentInput = z.output<typeof DelegatePaymentRequest>;

export const DelegatePaymentResponse = z
  .object({ id: z.string(), created: z.iso.datetime({ offset: true }), metadata: z.record(z.string(), z.string()) })
  .strict();

export const DELEGATE_PAYMENT_ERROR_TYPES = ["invalid_request", "rate_limit_exceeded", "processing_error", "service_unavailable"] as const;
export const DELEGATE_PAYMENT_ERROR_CODES = [
  "invalid_card",
  "duplicate_request",
  "idempotency_conflict",
  "too_many_requests",
  "idempotency_key_required",
  "idempotency_in_flight",
] as const;
export const DelegatePaymentError = z
  .object({
    type: z.enum(DELEGATE_PAYMENT_ERROR_TYPES),
    code: z.enum(DELEGATE_PAYMENT_ERROR_CODES),
    message: z.string(),
    param: z.string().optional(),
    supported_versions: z.array(z.string()).optional(),
  })
  .strict();

// ---- Order webhooks ------------------------------------------------------------------------------------

export const WEBHOOK_ORDER_STATUSES = ["created", "manual_review", "confirmed", "canceled", "shipped", "fulfilled"] as const;
export const WebhookRefund = z.object({ type: z.enum(["store_credit", "original_payment"]), amount: Int }).strict();
export const WebhookEventDataOrder = z
  .object({
    type: z.literal("order"),
    checkout_session_id: z.string(),
    permalink_url: z.url(),
    status: z.enum(WEBHOOK_ORDER_STATUSES),
    refunds: z.array(WebhookRefund),
  })
  .strict();
export const WebhookEvent = z.object({ type: z.enum(["order_create", "order_update"]), data: WebhookEventDataOrder }).strict();
export type AcpWebhookEvent = z.output<typeof WebhookEvent>;
