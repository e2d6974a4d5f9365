// Every /v1 operation, as the OpenAPI document (document.ts) describes it: the same zod schemas the routes
// validate their body and query with, and the response objects' schemas of the domain modules.
// A new route gets its entry here in the same commit (docs/api-reference.md "The OpenAPI document");
// tests/unit/openapi-coverage.test.ts fails while a route file and this list disagree.
import { z } from "zod";
import {
  CancelCheckoutBody,
  CaptureCheckoutBody,
  CheckoutList,
  CheckoutObject,
  ListCheckoutsQuery,
  OpenCheckoutBody,
} from "../checkouts/schemas";
import {
  CreateCustomerBody,
  CustomerList,
  CustomerObject,
  FundTestWalletBody,
  ListCustomersQuery,
  TestWalletObject,
} from "../customers/schemas";
import { EventStreamQuery, ListEventsQuery, ServiceEventList, ServiceEventObject } from "../events/schemas";
import { IntegrationList, WalletEvent, WalletWebhookResult } from "../integrations/schemas";
import { BalanceObject } from "../ledger/schemas";
import {
  CreateMeterBody,
  EmptyBody,
  FundMeterBody,
  ListMetersQuery,
  MeterFundingObject,
  MeterList,
  MeterObject,
  MeterReservationObject,
  MeterUsageBatchObject,
  MeterUsageRecordObject,
  MeterUsageSummaryObject,
  RecordUsageBody,
  ReserveBody,
  RetryPaymentBody,
  TopUpBody,
  UsageBatchBody,
  UsageSummaryQuery,
} from "../meters/schemas";
import { ListOrdersQuery, OrderList, OrderObject } from "../orders/schemas";
import {
  CreatePaidResourceBody,
  ListPaidResourcesQuery,
  PaidResourceList,
  PaidResourceObject,
  UpdatePaidResourceBody,
} from "../paid-resources/schemas";
import { ListPaymentIntentsQuery, PaymentIntentList, PaymentIntentObject } from "../payments/schemas";
import {
  PayPaywallBody,
  PaywallPayResult,
  PaywallRedemptionResult,
  PaywallVerifyResult,
  RedeemPaymentBody,
  VerifyPaymentBody,
} from "../paywall/schemas";
import { CreateProductBody, ListProductsQuery, ProductList, ProductObject, UpdateProductBody } from "../products/schemas";
import { CreateRefundBody, ListRefundsQuery, RefundList, RefundObject } from "../refunds/schemas";
import {
  ListTokensQuery,
  MintTokenBody,
  RedeemTokenBody,
  RevokeTokenBody,
  SharedPaymentTokenList,
  SharedPaymentTokenObject,
} from "../shared-payment-tokens/schemas";
import {
  CreateEndpointBody,
  DeletedWebhookEndpoint,
  EventResendObject,
  ListDeliveriesQuery,
  ListEndpointsQuery,
  ReplayFailedBody,
  ResendEventBody,
  RotateSecretBody,
  UpdateEndpointBody,
  WebhookDeliveryAttemptList,
  WebhookEndpointHealthObject,
  WebhookEndpointList,
  WebhookEndpointObject,
  WebhookReplayObject,
} from "../webhooks/schemas";

/** GET /v1/events/stream answers server-sent events, not JSON. */
export const EVENT_STREAM = "text/event-stream";

export interface Operation {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path template: `/v1/customers/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** secret: Bearer API key. public: no credential (limited per client IP). signature: signed body, no key. */
  auth: "secret" | "public" | "signature";
  /** The body schema the route passes to api({ body }); `name` makes it a named component. */
  body?: { schema: z.ZodType; name?: string };
  /** The query schema the route passes to api({ query }). */
  query?: z.ZodObject;
  /** Success responses by status; every error status answers ErrorBody. */
  responses: Record<number, z.ZodType | typeof EVENT_STREAM>;
  /** The generic Idempotency-Key record: true for a mutating api() route unless it sets idempotent: false. */
  idempotent?: boolean;
}

/** The document itself (GET /v1/openapi.json). */
export const OpenApiDocumentObject = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "OpenApiDocument" });

type Spec = Omit<Operation, "idempotent"> & { idempotent?: false };

/** Mutating operations with auth "secret" take the generic Idempotency-Key unless marked otherwise. */
function op(spec: Spec): Operation {
  return { ...spec, idempotent: spec.method !== "get" && spec.auth === "secret" && spec.idempotent !== false };
}

const named = (schema: z.ZodType, name?: string) => ({ schema, name });

/** /v1/paid_resources and its alias /v1/x402/resources answer the same objects. */
function paidResourceOperations(base: string, idPrefix: string): Operation[] {
  return [
    op({
      method: "post",
      path: base,
      operationId: `create${idPrefix}`,
      summary: "Create a paid resource",
      tag: "Paid resources",
      auth: "secret",
      body: named(CreatePaidResourceBody, "CreatePaidResourceParams"),
      responses: { 201: PaidResourceObject },
    }),
    op({
      method: "get",
      path: base,
      operationId: `list${idPrefix}s`,
      summary: "List paid resources",
      tag: "Paid resources",
      auth: "secret",
      query: ListPaidResourcesQuery,
      responses: { 200: PaidResourceList },
    }),
    op({
      method: "get",
      path: `${base}/{id}`,
      operationId: `get${idPrefix}`,
      summary: "Retrieve a paid resource",
      tag: "Paid resources",
      auth: "secret",
      responses: { 200: PaidResourceObject },
    }),
    op({
      method: "post",
      path: `${base}/{id}`,
      operationId: `update${idPrefix}`,
      summary: "Update a paid resource",
      tag: "Paid resources",
      auth: "secret",
      body: named(UpdatePaidResourceBody, "UpdatePaidResourceParams"),
      responses: { 200: PaidResourceObject },
    }),
    op({
      method: "delete",
      path: `${base}/{id}`,
      operationId: `archive${idPrefix}`,
      summary: "Archive a paid resource (active: false)",
      tag: "Paid resources",
      auth: "secret",
      responses: { 200: PaidResourceObject },
    }),
  ];
}

export const OPERATIONS: Operation[] = [
  // Meta
  op({
    method: "get",
    path: "/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI 3.1 document",
    tag: "Meta",
    auth: "public",
    responses: { 200: OpenApiDocumentObject },
  }),
  op({
    method: "get",
    path: "/v1/integrations",
    operationId: "listIntegrations",
    summary: "The protocols and surfaces this deployment speaks",
    tag: "Meta",
    auth: "public",
    responses: { 200: IntegrationList },
  }),

  // Customers
  op({
    method: "post",
    path: "/v1/customers",
    operationId: "createCustomer",
    summary: "Create a customer",
    tag: "Customers",
    auth: "secret",
    body: named(CreateCustomerBody, "CreateCustomerParams"),
    responses: { 201: CustomerObject },
  }),
  op({
    method: "get",
    path: "/v1/customers",
    operationId: "listCustomers",
    summary: "List customers",
    tag: "Customers",
    auth: "secret",
    query: ListCustomersQuery,
    responses: { 200: CustomerList },
  }),
  op({
    method: "get",
    path: "/v1/customers/{id}",
    operationId: "getCustomer",
    summary: "Retrieve a customer",
    tag: "Customers",
    auth: "secret",
    responses: { 200: CustomerObject },
  }),
  op({
    method: "post",
    path: "/v1/customers/{id}/fund",
    operationId: "fundCustomer",
    summary: "Fund a customer's test wallet (test mode)",
    tag: "Customers",
    auth: "secret",
    body: named(FundTestWalletBody, "FundCustomerParams"),
    responses: { 200: TestWalletObject },
  }),

  // Products
  op({
    method: "post",
    path: "/v1/products",
    operationId: "createProduct",
    summary: "Create a product",
    tag: "Products",
    auth: "secret",
    body: named(CreateProductBody, "CreateProductParams"),
    responses: { 201: ProductObject },
  }),
  op({
    method: "get",
    path: "/v1/products",
    operationId: "listProducts",
    summary: "List products",
    tag: "Products",
    auth: "secret",
    query: ListProductsQuery,
    responses: { 200: ProductList },
  }),
  op({
    method: "get",
    path: "/v1/products/{id}",
    operationId: "getProduct",
    summary: "Retrieve a product",
    tag: "Products",
    auth: "secret",
    responses: { 200: ProductObject },
  }),
  op({
    method: "post",
    path: "/v1/products/{id}",
    operationId: "updateProduct",
    summary: "Update a product",
    tag: "Products",
    auth: "secret",
    body: named(UpdateProductBody, "UpdateProductParams"),
    responses: { 200: ProductObject },
  }),
  op({
    method: "delete",
    path: "/v1/products/{id}",
    operationId: "archiveProduct",
    summary: "Archive a product (active: false)",
    tag: "Products",
    auth: "secret",
    responses: { 200: ProductObject },
  }),

  // Checkouts
  op({
    method: "post",
    path: "/v1/checkouts",
    operationId: "createCheckout",
    summary: "Open a checkout",
    tag: "Checkouts",
    auth: "secret",
    body: named(OpenCheckoutBody, "CreateCheckoutParams"),
    responses: { 201: CheckoutObject },
  }),
  op({
    method: "get",
    path: "/v1/checkouts",
    operationId: "listCheckouts",
    summary: "List checkouts",
    tag: "Checkouts",
    auth: "secret",
    query: ListCheckoutsQuery,
    responses: { 200: CheckoutList },
  }),
  op({
    method: "get",
    path: "/v1/checkouts/{id}",
    operationId: "getCheckout",
    summary: "Retrieve a checkout",
    tag: "Checkouts",
    auth: "secret",
    responses: { 200: CheckoutObject },
  }),
  op({
    method: "post",
    path: "/v1/checkouts/{id}/capture",
    operationId: "captureCheckout",
    summary: "Pay a checkout: charge and capture; answers its order",
    tag: "Checkouts",
    auth: "secret",
    body: named(CaptureCheckoutBody, "CaptureCheckoutParams"),
    responses: { 200: OrderObject },
  }),
  op({
    method: "post",
    path: "/v1/checkouts/{id}/cancel",
    operationId: "cancelCheckout",
    summary: "Cancel an open checkout",
    tag: "Checkouts",
    auth: "secret",
    body: named(CancelCheckoutBody),
    responses: { 200: CheckoutObject },
  }),

  // Orders, payments, refunds, balance
  op({
    method: "get",
    path: "/v1/orders",
    operationId: "listOrders",
    summary: "List orders",
    tag: "Orders",
    auth: "secret",
    query: ListOrdersQuery,
    responses: { 200: OrderList },
  }),
  op({
    method: "get",
    path: "/v1/orders/{id}",
    operationId: "getOrder",
    summary: "Retrieve an order",
    tag: "Orders",
    auth: "secret",
    responses: { 200: OrderObject },
  }),
  op({
    method: "get",
    path: "/v1/payment_intents",
    operationId: "listPaymentIntents",
    summary: "List PaymentIntents",
    tag: "PaymentIntents",
    auth: "secret",
    query: ListPaymentIntentsQuery,
    responses: { 200: PaymentIntentList },
  }),
  op({
    method: "get",
    path: "/v1/payment_intents/{id}",
    operationId: "getPaymentIntent",
    summary: "Retrieve a PaymentIntent",
    tag: "PaymentIntents",
    auth: "secret",
    responses: { 200: PaymentIntentObject },
  }),
  op({
    method: "post",
    path: "/v1/refunds",
    operationId: "createRefund",
    summary: "Refund a PaymentIntent or an order, in full or in part",
    tag: "Refunds",
    auth: "secret",
    body: named(CreateRefundBody, "CreateRefundParams"),
    responses: { 201: RefundObject },
  }),
  op({
    method: "get",
    path: "/v1/refunds",
    operationId: "listRefunds",
    summary: "List refunds",
    tag: "Refunds",
    auth: "secret",
    query: ListRefundsQuery,
    responses: { 200: RefundList },
  }),
  op({
    method: "get",
    path: "/v1/refunds/{id}",
    operationId: "getRefund",
    summary: "Retrieve a refund",
    tag: "Refunds",
    auth: "secret",
    responses: { 200: RefundObject },
  }),
  op({
    method: "get",
    path: "/v1/balance",
    operationId: "getBalance",
    summary: "Pending and payable funds per currency",
    tag: "Balance",
    auth: "secret",
    responses: { 200: BalanceObject },
  }),

  // Events
  op({
    method: "get",
    path: "/v1/events",
    operationId: "listEvents",
    summary: "List events",
    tag: "Events",
    auth: "secret",
    query: ListEventsQuery,
    responses: { 200: ServiceEventList },
  }),
  op({
    method: "get",
    path: "/v1/events/{id}",
    operationId: "getEvent",
    summary: "Retrieve an event",
    tag: "Events",
    auth: "secret",
    responses: { 200: ServiceEventObject },
  }),
  op({
    method: "get",
    path: "/v1/events/stream",
    operationId: "streamEvents",
    summary: "Server-sent events of the key's merchant and mode (each `data:` line is a ServiceEvent)",
    tag: "Events",
    auth: "secret",
    query: EventStreamQuery,
    responses: { 200: EVENT_STREAM },
  }),
  op({
    method: "post",
    path: "/v1/events/{id}/resend",
    operationId: "resendEvent",
    summary: "Queue an event's delivery again",
    tag: "Events",
    auth: "secret",
    body: named(ResendEventBody, "ResendEventParams"),
    responses: { 200: EventResendObject },
  }),

  // Webhook endpoints
  op({
    method: "post",
    path: "/v1/webhook-endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Create a webhook endpoint (its secret is in this answer only)",
    tag: "Webhooks",
    auth: "secret",
    body: named(CreateEndpointBody, "CreateWebhookEndpointParams"),
    responses: { 201: WebhookEndpointObject },
  }),
  op({
    method: "get",
    path: "/v1/webhook-endpoints",
    operationId: "listWebhookEndpoints",
    summary: "List webhook endpoints",
    tag: "Webhooks",
    auth: "secret",
    query: ListEndpointsQuery,
    responses: { 200: WebhookEndpointList },
  }),
  op({
    method: "get",
    path: "/v1/webhook-endpoints/{id}",
    operationId: "getWebhookEndpoint",
    summary: "Retrieve a webhook endpoint",
    tag: "Webhooks",
    auth: "secret",
    responses: { 200: WebhookEndpointObject },
  }),
  op({
    method: "patch",
    path: "/v1/webhook-endpoints/{id}",
    operationId: "updateWebhookEndpoint",
    summary: "Update a webhook endpoint",
    tag: "Webhooks",
    auth: "secret",
    body: named(UpdateEndpointBody, "UpdateWebhookEndpointParams"),
    responses: { 200: WebhookEndpointObject },
  }),
  op({
    method: "delete",
    path: "/v1/webhook-endpoints/{id}",
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    tag: "Webhooks",
    auth: "secret",
    responses: { 200: DeletedWebhookEndpoint },
  }),
  op({
    method: "post",
    path: "/v1/webhook-endpoints/{id}/rotate-secret",
    operationId: "rotateWebhookEndpointSecret",
    summary: "Rotate the signing secret (the new one is in this answer only)",
    tag: "Webhooks",
    auth: "secret",
    body: named(RotateSecretBody, "RotateWebhookSecretParams"),
    responses: { 200: WebhookEndpointObject },
  }),
  op({
    method: "get",
    path: "/v1/webhook-endpoints/{id}/deliveries",
    operationId: "listWebhookDeliveryAttempts",
    summary: "List an endpoint's delivery attempts",
    tag: "Webhooks",
    auth: "secret",
    query: ListDeliveriesQuery,
    responses: { 200: WebhookDeliveryAttemptList },
  }),
  op({
    method: "get",
    path: "/v1/webhook-endpoints/{id}/health",
    operationId: "getWebhookEndpointHealth",
    summary: "An endpoint's success rate and latency over 24 hours",
    tag: "Webhooks",
    auth: "secret",
    responses: { 200: WebhookEndpointHealthObject },
  }),
  op({
    method: "post",
    path: "/v1/webhook-endpoints/{id}/replay-failed",
    operationId: "replayFailedWebhookDeliveries",
    summary: "Queue again every failed delivery since a time",
    tag: "Webhooks",
    auth: "secret",
    body: named(ReplayFailedBody, "ReplayFailedDeliveriesParams"),
    responses: { 200: WebhookReplayObject },
  }),
  op({
    method: "post",
    path: "/v1/integrations/wallet/webhook",
    operationId: "receiveWalletWebhook",
    summary: "Inbound wallet-provider webhook, signed in X-Service-Signature",
    tag: "Webhooks",
    auth: "signature",
    body: named(WalletEvent, "WalletEvent"),
    responses: { 200: WalletWebhookResult },
  }),

  // Shared payment tokens
  op({
    method: "post",
    path: "/v1/shared_payment_tokens",
    operationId: "mintSharedPaymentToken",
    summary: "Mint a shared payment token (the payer's key)",
    tag: "Shared payment tokens",
    auth: "secret",
    body: named(MintTokenBody, "MintSharedPaymentTokenParams"),
    responses: { 201: SharedPaymentTokenObject },
  }),
  op({
    method: "get",
    path: "/v1/shared_payment_tokens",
    operationId: "listSharedPaymentTokens",
    summary: "List the payer's tokens",
    tag: "Shared payment tokens",
    auth: "secret",
    query: ListTokensQuery,
    responses: { 200: SharedPaymentTokenList },
  }),
  op({
    method: "get",
    path: "/v1/shared_payment_tokens/{id}",
    operationId: "getSharedPaymentToken",
    summary: "Retrieve one of the payer's tokens",
    tag: "Shared payment tokens",
    auth: "secret",
    responses: { 200: SharedPaymentTokenObject },
  }),
  op({
    method: "post",
    path: "/v1/shared_payment_tokens/{id}/revoke",
    operationId: "revokeSharedPaymentToken",
    summary: "Revoke a token (the payer's key)",
    tag: "Shared payment tokens",
    auth: "secret",
    body: named(RevokeTokenBody),
    responses: { 200: SharedPaymentTokenObject },
  }),
  op({
    method: "post",
    path: "/v1/shared_payment_tokens/{id}/redeem",
    operationId: "redeemSharedPaymentToken",
    summary: "Charge a token once (the merchant's key); answers the captured PaymentIntent",
    tag: "Shared payment tokens",
    auth: "secret",
    body: named(RedeemTokenBody, "RedeemSharedPaymentTokenParams"),
    responses: { 201: PaymentIntentObject },
  }),

  // Paywall
  op({
    method: "post",
    path: "/v1/paywall/verify",
    operationId: "verifyPaywallPayment",
    summary: "Check a payment against a gate's terms (changes nothing)",
    tag: "Paywall",
    auth: "secret",
    idempotent: false,
    body: named(VerifyPaymentBody, "PaywallVerifyParams"),
    responses: { 200: PaywallVerifyResult },
  }),
  op({
    method: "post",
    path: "/v1/paywall/redemptions",
    operationId: "redeemPaywallPayment",
    summary: "Consume a payment once (with the terms: verify first); 201 redeemed now, 200 otherwise",
    tag: "Paywall",
    auth: "secret",
    idempotent: false,
    body: named(RedeemPaymentBody, "PaywallRedeemParams"),
    responses: { 201: PaywallRedemptionResult, 200: PaywallRedemptionResult },
  }),
  op({
    method: "post",
    path: "/v1/paywall/pay",
    operationId: "payPaywall",
    summary: "Pay a gate's terms with the payer's key",
    tag: "Paywall",
    auth: "secret",
    idempotent: false,
    body: named(PayPaywallBody, "PaywallPayParams"),
    responses: { 201: PaywallPayResult },
  }),

  // Paid resources (x402, MPP)
  ...paidResourceOperations("/v1/paid_resources", "PaidResource"),
  ...paidResourceOperations("/v1/x402/resources", "X402Resource"),

  // Meters
  op({
    method: "post",
    path: "/v1/meters",
    operationId: "createMeter",
    summary: "Open a meter (a prepaid one is funded during the request); 200 when a retry found it",
    tag: "Meters",
    auth: "secret",
    body: named(CreateMeterBody, "CreateMeterParams"),
    responses: { 201: MeterObject, 200: MeterObject },
  }),
  op({
    method: "get",
    path: "/v1/meters",
    operationId: "listMeters",
    summary: "List meters",
    tag: "Meters",
    auth: "secret",
    query: ListMetersQuery,
    responses: { 200: MeterList },
  }),
  op({
    method: "get",
    path: "/v1/meters/{id}",
    operationId: "getMeter",
    summary: "Retrieve a meter",
    tag: "Meters",
    auth: "secret",
    responses: { 200: MeterObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/usage",
    operationId: "recordMeterUsage",
    summary: "Record post-paid usage (201; 200 with the original record for a known idempotencyKey)",
    tag: "Meters",
    auth: "secret",
    idempotent: false,
    body: named(RecordUsageBody, "MeterUsageParams"),
    responses: { 201: MeterUsageRecordObject, 200: MeterUsageRecordObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/usage_batches",
    operationId: "recordMeterUsageBatch",
    summary: "Record up to 1,000 post-paid usage records at once",
    tag: "Meters",
    auth: "secret",
    body: named(UsageBatchBody, "MeterUsageBatchParams"),
    responses: { 200: MeterUsageBatchObject },
  }),
  op({
    method: "get",
    path: "/v1/meters/{id}/usage_summary",
    operationId: "getMeterUsageSummary",
    summary: "A meter's usage by hour or day",
    tag: "Meters",
    auth: "secret",
    query: UsageSummaryQuery,
    responses: { 200: MeterUsageSummaryObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/reservations",
    operationId: "reserveMeterBudget",
    summary: "Hold prepaid budget for a call (201 created by this request, 200 found)",
    tag: "Meters",
    auth: "secret",
    idempotent: false,
    body: named(ReserveBody, "MeterReservationParams"),
    responses: { 201: MeterReservationObject, 200: MeterReservationObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/reservations/{rid}/commit",
    operationId: "commitMeterReservation",
    summary: "Commit a hold: its amount is used",
    tag: "Meters",
    auth: "secret",
    idempotent: false,
    body: named(EmptyBody),
    responses: { 200: MeterReservationObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/reservations/{rid}/release",
    operationId: "releaseMeterReservation",
    summary: "Release a hold: its amount is available again",
    tag: "Meters",
    auth: "secret",
    idempotent: false,
    body: named(EmptyBody),
    responses: { 200: MeterReservationObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/top-up",
    operationId: "topUpMeter",
    summary: "Charge more prepaid budget now",
    tag: "Meters",
    auth: "secret",
    body: named(TopUpBody, "MeterTopUpParams"),
    responses: { 200: MeterObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/fund",
    operationId: "fundMeter",
    summary: "Fund another merchant's prepaid meter with the payer's key (201; 200 when a retry found it)",
    tag: "Meters",
    auth: "secret",
    idempotent: false,
    body: named(FundMeterBody, "MeterFundParams"),
    responses: { 201: MeterFundingObject, 200: MeterFundingObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/retry-payment",
    operationId: "retryMeterPayment",
    summary: "Bill a past-due meter's outstanding amount again",
    tag: "Meters",
    auth: "secret",
    body: named(RetryPaymentBody, "MeterRetryPaymentParams"),
    responses: { 200: MeterObject },
  }),
  op({
    method: "post",
    path: "/v1/meters/{id}/close",
    operationId: "closeMeter",
    summary: "Close a meter (settles what is left)",
    tag: "Meters",
    auth: "secret",
    body: named(EmptyBody),
    responses: { 200: MeterObject },
  }),
];
