// The SDK's public surface as it stands, pinned: every name the two entries export, and each resource method of
// ServiceClient with its signature (`<resource>.create | retrieve | list | update | ...`). Published callers
// compile against exactly these; the methods may be written by hand or generated from the API document
// (docs/sdk.md), but a name may only be added, never renamed or dropped, and a signature never changed.
// The signatures are checked by the compiler (tsc over this file, in `npm test` and the package's own
// `npm run typecheck`); the names also at run time, on a constructed client and the loaded modules.
import { describe, expect, expectTypeOf, it } from "vitest";
import * as sdk from "../src/index";
import * as mpp from "../src/mpp";
import type {
  Balance,
  CaptureCheckoutParams,
  Checkout,
  CreateCheckoutParams,
  CreateCustomerParams,
  CreateMeterParams,
  CreatePaidResourceParams,
  CreateProductParams,
  CreateRefundParams,
  CreateWebhookEndpointParams,
  Customer,
  DeletedWebhookEndpoint,
  EventResend,
  FundCustomerParams,
  HttpMethod,
  List,
  ListCheckoutsParams,
  ListEventsParams,
  ListMetersParams,
  ListOrdersParams,
  ListPaidResourcesParams,
  ListParams,
  ListPaymentIntentsParams,
  ListProductsParams,
  ListRefundsParams,
  ListSharedPaymentTokensParams,
  Meter,
  MeterFunding,
  MeterFundParams,
  MeterReservation,
  MeterReservationParams,
  MeterRetryPaymentParams,
  MeterTopUpParams,
  MeterUsageBatch,
  MeterUsageBatchRecord,
  MeterUsageParams,
  MeterUsageRecord,
  MeterUsageSummary,
  MeterUsageSummaryParams,
  MintSharedPaymentTokenParams,
  Order,
  PaidResource,
  PaymentIntent,
  PaywallPayParams,
  PaywallPayResult,
  PaywallRedemptionResult,
  PaywallVerifiedRedemptionResult,
  PaywallVerifyParams,
  PaywallVerifyResult,
  Product,
  RedeemSharedPaymentTokenParams,
  ReplayFailedDeliveriesParams,
  Refund,
  RequestOptions,
  RotateForwardingSecretParams,
  SetX402PayoutAddressParams,
  ServiceClient,
  ServiceEvent,
  SharedPaymentToken,
  UpdatePaidResourceParams,
  UpdateProductParams,
  UpdateWebhookEndpointParams,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  WebhookEndpointHealth,
  WebhookReplay,
  X402PayoutAddress,
} from "../src/index";

type Options = RequestOptions | undefined;

/** Today's resource methods of ServiceClient and their signatures. A new method or resource goes beside these. */
interface Surface {
  customers: {
    create: (params?: CreateCustomerParams, options?: Options) => Promise<Customer>;
    retrieve: (customerId: string, options?: Options) => Promise<Customer>;
    list: (params?: ListParams, options?: Options) => Promise<List<Customer>>;
    fund: (customerId: string, params: FundCustomerParams, options?: Options) => Promise<Customer>;
  };
  checkouts: {
    create: (params: CreateCheckoutParams, options?: Options) => Promise<Checkout>;
    retrieve: (checkoutId: string, options?: Options) => Promise<Checkout>;
    list: (params?: ListCheckoutsParams, options?: Options) => Promise<List<Checkout>>;
    capture: (checkoutId: string, params: CaptureCheckoutParams, options?: Options) => Promise<Order>;
    cancel: (checkoutId: string, options?: Options) => Promise<Checkout>;
  };
  paymentIntents: {
    retrieve: (paymentIntentId: string, options?: Options) => Promise<PaymentIntent>;
    receipt: (paymentIntentId: string, options?: Options) => Promise<sdk.Receipt>;
    list: (params?: ListPaymentIntentsParams, options?: Options) => Promise<List<PaymentIntent>>;
  };
  orders: {
    retrieve: (orderId: string, options?: Options) => Promise<Order>;
    list: (params?: ListOrdersParams, options?: Options) => Promise<List<Order>>;
  };
  refunds: {
    create: (params: CreateRefundParams, options?: Options) => Promise<Refund>;
    retrieve: (refundId: string, options?: Options) => Promise<Refund>;
    list: (params?: ListRefundsParams, options?: Options) => Promise<List<Refund>>;
  };
  balance: {
    retrieve: (options?: Options) => Promise<Balance>;
  };
  events: {
    retrieve: (eventId: string, options?: Options) => Promise<ServiceEvent>;
    list: (params?: ListEventsParams, options?: Options) => Promise<List<ServiceEvent>>;
    resend: (eventId: string, options?: Options) => Promise<EventResend>;
  };
  webhookEndpoints: {
    create: (params: CreateWebhookEndpointParams, options?: Options) => Promise<WebhookEndpoint>;
    retrieve: (endpointId: string, options?: Options) => Promise<WebhookEndpoint>;
    list: (params?: ListParams, options?: Options) => Promise<List<WebhookEndpoint>>;
    update: (endpointId: string, params: UpdateWebhookEndpointParams, options?: Options) => Promise<WebhookEndpoint>;
    del: (endpointId: string, options?: Options) => Promise<DeletedWebhookEndpoint>;
    rotateSecret: (endpointId: string, options?: Options) => Promise<WebhookEndpoint>;
    listDeliveries: (endpointId: string, params?: ListParams, options?: Options) => Promise<List<WebhookDeliveryAttempt>>;
    health: (endpointId: string, options?: Options) => Promise<WebhookEndpointHealth>;
    replayFailed: (endpointId: string, params?: ReplayFailedDeliveriesParams, options?: Options) => Promise<WebhookReplay>;
  };
  payoutAddresses: {
    list: (options?: Options) => Promise<List<X402PayoutAddress>>;
    set: (params: SetX402PayoutAddressParams, options?: Options) => Promise<X402PayoutAddress>;
  };
  paywall: {
    verify: (params: PaywallVerifyParams, options?: Options) => Promise<PaywallVerifyResult>;
    pay: (params: PaywallPayParams, options?: Options) => Promise<PaywallPayResult>;
    redeem: (paymentIntentId: string, options?: Options) => Promise<PaywallRedemptionResult>;
    verifyAndRedeem: (params: PaywallVerifyParams, options?: Options) => Promise<PaywallVerifiedRedemptionResult>;
  };
  meters: {
    create: (params: CreateMeterParams, options?: Options) => Promise<Meter>;
    retrieve: (meterId: string, options?: Options) => Promise<Meter>;
    list: (params?: ListMetersParams, options?: Options) => Promise<List<Meter>>;
    recordUsage: (meterId: string, params: MeterUsageParams, options?: Options) => Promise<MeterUsageRecord>;
    recordUsageBatch: (records: MeterUsageBatchRecord[], options?: Options) => Promise<MeterUsageBatch>;
    usageSummary: (meterId: string, params?: MeterUsageSummaryParams, options?: Options) => Promise<MeterUsageSummary>;
    reserve: (meterId: string, params: MeterReservationParams, options?: Options) => Promise<MeterReservation>;
    commitReservation: (meterId: string, reservationId: string, options?: Options) => Promise<MeterReservation>;
    releaseReservation: (meterId: string, reservationId: string, options?: Options) => Promise<MeterReservation>;
    topUp: (meterId: string, params: MeterTopUpParams, options?: Options) => Promise<Meter>;
    fund: (meterId: string, params: MeterFundParams, options?: Options) => Promise<MeterFunding>;
    retryPayment: (meterId: string, params?: MeterRetryPaymentParams, options?: Options) => Promise<Meter>;
    close: (meterId: string, options?: Options) => Promise<Meter>;
  };
  products: {
    create: (params: CreateProductParams, options?: Options) => Promise<Product>;
    retrieve: (productId: string, options?: Options) => Promise<Product>;
    list: (params?: ListProductsParams, options?: Options) => Promise<List<Product>>;
    update: (productId: string, params: UpdateProductParams, options?: Options) => Promise<Product>;
    archive: (productId: string, options?: Options) => Promise<Product>;
  };
  sharedPaymentTokens: {
    create: (params: MintSharedPaymentTokenParams, options?: Options) => Promise<SharedPaymentToken>;
    retrieve: (tokenId: string, options?: Options) => Promise<SharedPaymentToken>;
    list: (params?: ListSharedPaymentTokensParams, options?: Options) => Promise<List<SharedPaymentToken>>;
    revoke: (tokenId: string, options?: Options) => Promise<SharedPaymentToken>;
    redeem: (tokenId: string, params: RedeemSharedPaymentTokenParams, options?: Options) => Promise<PaymentIntent>;
  };
  paidResources: {
    create: (params: CreatePaidResourceParams, options?: Options) => Promise<PaidResource>;
    retrieve: (resourceId: string, options?: Options) => Promise<PaidResource>;
    list: (params?: ListPaidResourcesParams, options?: Options) => Promise<List<PaidResource>>;
    update: (resourceId: string, params: UpdatePaidResourceParams, options?: Options) => Promise<PaidResource>;
    archive: (resourceId: string, options?: Options) => Promise<PaidResource>;
    rotateForwardingSecret: (
      resourceId: string,
      params?: Partial<RotateForwardingSecretParams>,
      options?: Options,
    ) => Promise<PaidResource>;
  };
}

/** The pinned methods of one resource as the client has them (a dropped method is missing here, so unequal). */
type Today<R extends keyof Surface> = Pick<ServiceClient[R], keyof Surface[R] & keyof ServiceClient[R]>;

/** Today's names of each resource's methods, checked against the Surface above in both directions. */
const METHODS = {
  customers: ["create", "retrieve", "list", "fund"],
  checkouts: ["create", "retrieve", "list", "capture", "cancel"],
  paymentIntents: ["retrieve", "receipt", "list"],
  orders: ["retrieve", "list"],
  refunds: ["create", "retrieve", "list"],
  balance: ["retrieve"],
  events: ["retrieve", "list", "resend"],
  webhookEndpoints: ["create", "retrieve", "list", "update", "del", "rotateSecret", "listDeliveries", "health", "replayFailed"],
  payoutAddresses: ["list", "set"],
  paywall: ["verify", "pay", "redeem", "verifyAndRedeem"],
  meters: [
    "create",
    "retrieve",
    "list",
    "recordUsage",
    "recordUsageBatch",
    "usageSummary",
    "reserve",
    "commitReservation",
    "releaseReservation",
    "topUp",
    "fund",
    "retryPayment",
    "close",
  ],
  products: ["create", "retrieve", "list", "update", "archive"],
  sharedPaymentTokens: ["create", "retrieve", "list", "revoke", "redeem"],
  paidResources: ["create", "retrieve", "list", "update", "archive", "rotateForwardingSecret"],
} as const satisfies { [R in keyof Surface]: readonly (keyof Surface[R])[] };

/** Every value the main entry exports today. */
const VALUES = [
  "DEFAULT_TOLERANCE_SECONDS",
  "EVENT_ID_HEADER",
  "PAYMENT_ARGUMENT",
  "PAYMENT_HEADER",
  "PAYMENT_INTENT_HEADER",
  "PAYMENT_RESPONSE_HEADER",
  "REASON_CODES",
  "SERVICE_PAYMENT_JSON_SCHEMA",
  "SIGNATURE_HEADER",
  "ServiceClient",
  "ServiceError",
  "UptoOverMcpError",
  "UsageBufferFullError",
  "X402_PAYMENT_REQUIRED_HEADER",
  "X402_PAYMENT_RESPONSE_HEADER",
  "agentKeyId",
  "backoffDelayMs",
  "clearAgentDirectoryCache",
  "clearReceiptKeyCache",
  "computeSignature",
  "forwardedRequestPayload",
  "generateIdempotencyKey",
  "generateTestHeader",
  "inMemoryConsumedStore",
  "isRetryable",
  "meteredPaywall",
  "parseRetryAfter",
  "parseSignatureHeader",
  "paywall",
  "paywallHttp",
  "postgresConsumedStore",
  "redisConsumedStore",
  "serviceBackend",
  "serviceConsumedStore",
  "serviceMeteringBackend",
  "signAgentKeyRegistration",
  "signAgentObject",
  "signAgentRequest",
  "signForwardedRequest",
  "signWebhookPayload",
  "usageBuffer",
  "verifyAgentRequest",
  "verifyForwardedRequest",
  "verifyReceipt",
  "verifySignedPayload",
  "verifyWebhook",
] as const satisfies readonly (keyof typeof sdk)[];

/** Every value of the MPP entry (agent-payments-sdk/mpp). */
const MPP_VALUES = [
  "MPP_INTENT",
  "MPP_METHOD_NAME",
  "mintTokenFor",
  "service",
  "serviceClientMethod",
  "serviceServerMethod",
] as const satisfies readonly (keyof typeof mpp)[];

/**
 * Every type the two entries export today: a renamed or dropped one does not compile here. (Generic ones with
 * an argument; `List` is also pinned by the signatures above.)
 */
export type TypeExports = [
  sdk.VerifiedAgentRequest,
  sdk.VerifyAgentRequestOptions,
  sdk.NodeRequestLike,
  sdk.AgentKeyRegistrationOptions,
  sdk.AgentRequestVerification,
  sdk.AgentSignatureAlgorithm,
  sdk.AgentVerificationReason,
  sdk.AgentPrivateJwk,
  sdk.AgentSignOptions,
  sdk.AgentSignature,
  sdk.AlreadyRedeemed,
  sdk.AlreadyRedeemedToolResult,
  sdk.AlreadyUsedRefusal,
  sdk.AlreadyUsedResult,
  sdk.AlreadyUsedToolResult,
  sdk.Balance,
  sdk.CallToolResult,
  sdk.CaptureCheckoutParams,
  sdk.CatalogLineItem,
  sdk.Checkout,
  sdk.CheckoutStatus,
  sdk.ConsumedStore,
  sdk.ContentBlock,
  sdk.CreateCheckoutParams,
  sdk.CreateCustomerParams,
  sdk.CreateMeterParams,
  sdk.CreatePaidResourceParams,
  sdk.CreateProductParams,
  sdk.CreateRefundParams,
  sdk.CreateWebhookEndpointParams,
  sdk.Customer,
  sdk.DeletedWebhookEndpoint,
  sdk.EventResend,
  sdk.EventType,
  sdk.FailedCallPayment,
  sdk.FailedToolResult,
  sdk.FetchLike,
  sdk.ForwardedRequestParts,
  sdk.FundCustomerParams,
  sdk.GateToolResult,
  sdk.HttpHandler,
  sdk.HttpMethod,
  sdk.InMemoryConsumedStore,
  sdk.InsufficientBudgetRefusal,
  sdk.LineItem,
  sdk.List<unknown>,
  sdk.ListCheckoutsParams,
  sdk.ListEventsParams,
  sdk.ListMetersParams,
  sdk.ListOrdersParams,
  sdk.ListPaidResourcesParams,
  sdk.ListParams,
  sdk.ListPaymentIntentsParams,
  sdk.ListProductsParams,
  sdk.ListRefundsParams,
  sdk.ListSharedPaymentTokensParams,
  sdk.Metadata,
  sdk.Meter,
  sdk.MeterFundParams,
  sdk.MeterFunding,
  sdk.MeterPaymentPurpose,
  sdk.MeterRefusal,
  sdk.MeterReservation,
  sdk.MeterReservationParams,
  sdk.MeterRetryPaymentParams,
  sdk.MeterTopUpParams,
  sdk.MeterUsageBatch,
  sdk.MeterUsageBatchRecord,
  sdk.MeterUsageBatchResult,
  sdk.MeterUsageBatchResultStatus,
  sdk.MeterUsageParams,
  sdk.MeterUsageRecord,
  sdk.MeterUsageSummary,
  sdk.MeterUsageSummaryBucket,
  sdk.MeterUsageSummaryParams,
  sdk.MeteredGate,
  sdk.MeteredPaywallOptions,
  sdk.MeteredResult<unknown>,
  sdk.MeteringBackend,
  sdk.MeteringBlock,
  sdk.MintSharedPaymentTokenParams,
  sdk.Order,
  sdk.OrderStatus,
  sdk.PaidResource,
  sdk.PaidToolResult<unknown>,
  sdk.PastDueGate,
  sdk.PastDueRefusal,
  sdk.PastDueToolResult,
  sdk.PaymentBlock,
  sdk.PaymentIntent,
  sdk.PaymentIntentStatus,
  sdk.PaymentSource,
  sdk.PaywallBackend,
  sdk.PaywallGate,
  sdk.PaywallOptions,
  sdk.PaywallPayParams,
  sdk.PaywallPayResult,
  sdk.PaywallReasonCode,
  sdk.PaywallRedemptionResult,
  sdk.PaywallTerms,
  sdk.PaywallVerifiedRedemptionResult,
  sdk.PaywallVerifyParams,
  sdk.PaywallVerifyResult,
  sdk.PaywallX402Options,
  sdk.PaywalledResult<unknown>,
  sdk.PgQueryable,
  sdk.PostgresConsumedStore,
  sdk.PostgresConsumedStoreOptions,
  sdk.Product,
  sdk.RawBody,
  sdk.Receipt,
  sdk.ReceiptPayer,
  sdk.RedeemSharedPaymentTokenParams,
  sdk.RedisConsumedStoreOptions,
  sdk.RedisLike,
  sdk.Refund,
  sdk.RefundFailedPayment,
  sdk.RefundedPayment,
  sdk.RefusedUsage,
  sdk.RequestOptions,
  sdk.ReservationParams,
  sdk.ReserveOutcome,
  sdk.RotateForwardingSecretParams,
  sdk.SendBatch,
  sdk.ServiceBackendOptions,
  sdk.ServiceClientOptions,
  sdk.ServiceConsumedStore,
  sdk.ServiceConsumedStoreOptions,
  sdk.ServiceErrorCode,
  sdk.ServiceErrorInit,
  sdk.ServiceEvent,
  sdk.ServiceMeteringBackendOptions,
  sdk.ServicePaymentProof,
  sdk.ServiceReceipt,
  sdk.SharedPaymentToken,
  sdk.SharedPaymentTokenStatus,
  sdk.StructuredErrorResult<Record<string, unknown>>,
  sdk.TextContent,
  sdk.TopUpGate,
  sdk.TopUpToolResult,
  sdk.TransportErrorCode,
  sdk.UpdatePaidResourceParams,
  sdk.UpdateProductParams,
  sdk.UpdateWebhookEndpointParams,
  sdk.UsageBuffer,
  sdk.UsageBufferOptions,
  sdk.UsageBuffered,
  sdk.UsageParams,
  sdk.VerifiedForwardedRequest,
  sdk.VerifyOutcome,
  sdk.VerifyReceiptOptions,
  sdk.VerifyWebhookOptions,
  sdk.WebhookDeliveryAttempt,
  sdk.WebhookEndpoint,
  sdk.WebhookEvent,
  sdk.components,
  sdk.operations,
  sdk.paths,
  mpp.MintTokenForOptions,
  mpp.MppApprovalPendingDetails,
  mpp.MppVerification,
  mpp.ServiceChallenge,
  mpp.ServiceChargeRequest,
  mpp.ServiceClientMethodOptions,
  mpp.ServiceMethod,
  mpp.ServiceServerMethodOptions,
];

describe("the SDK's public surface (today's names and signatures)", () => {
  it("each resource method of ServiceClient has today's signature", () => {
    expectTypeOf<Today<"customers">>().toEqualTypeOf<Surface["customers"]>();
    expectTypeOf<Today<"checkouts">>().toEqualTypeOf<Surface["checkouts"]>();
    expectTypeOf<Today<"paymentIntents">>().toEqualTypeOf<Surface["paymentIntents"]>();
    expectTypeOf<Today<"orders">>().toEqualTypeOf<Surface["orders"]>();
    expectTypeOf<Today<"refunds">>().toEqualTypeOf<Surface["refunds"]>();
    expectTypeOf<Today<"balance">>().toEqualTypeOf<Surface["balance"]>();
    expectTypeOf<Today<"events">>().toEqualTypeOf<Surface["events"]>();
    expectTypeOf<Today<"webhookEndpoints">>().toEqualTypeOf<Surface["webhookEndpoints"]>();
    expectTypeOf<Today<"paywall">>().toEqualTypeOf<Surface["paywall"]>();
    expectTypeOf<Today<"payoutAddresses">>().toEqualTypeOf<Surface["payoutAddresses"]>();
    expectTypeOf<Today<"meters">>().toEqualTypeOf<Surface["meters"]>();
    expectTypeOf<Today<"products">>().toEqualTypeOf<Surface["products"]>();
    expectTypeOf<Today<"sharedPaymentTokens">>().toEqualTypeOf<Surface["sharedPaymentTokens"]>();
    expectTypeOf<Today<"paidResources">>().toEqualTypeOf<Surface["paidResources"]>();
    // The list of names below covers every pinned method, and names nothing the Surface does not pin.
    expectTypeOf<{ [R in keyof Surface]: (typeof METHODS)[R][number] }>().toEqualTypeOf<{ [R in keyof Surface]: keyof Surface[R] }>();
  });

  it("the client's own members keep their signatures", () => {
    expectTypeOf<ConstructorParameters<typeof ServiceClient>>().toEqualTypeOf<[options: sdk.ServiceClientOptions]>();
    expectTypeOf<ServiceClient["baseUrl"]>().toEqualTypeOf<string>();
    expectTypeOf<ServiceClient["request"]>().toEqualTypeOf<
      <T>(method: HttpMethod, path: string, body?: unknown, options?: Options) => Promise<T>
    >();
    expectTypeOf<Parameters<ServiceClient["requestWithResponse"]>>().toEqualTypeOf<Parameters<ServiceClient["request"]>>();
    expectTypeOf<Awaited<ReturnType<ServiceClient["requestWithResponse"]>>>().toHaveProperty("body");
  });

  it("a constructed client has every resource method", () => {
    const client = new sdk.ServiceClient({ baseUrl: "http://127.0.0.1:1", apiKey: "sk_test_surface" });
    for (const [resource, methods] of Object.entries(METHODS)) {
      for (const method of methods) {
        expect(typeof (client as unknown as Record<string, Record<string, unknown>>)[resource]?.[method], `${resource}.${method}`).toBe(
          "function",
        );
      }
    }
  });

  it("both entries export every value they export today", () => {
    expect(Object.keys(sdk)).toEqual(expect.arrayContaining([...VALUES]));
    expect(Object.keys(mpp)).toEqual(expect.arrayContaining([...MPP_VALUES]));
  });
});
