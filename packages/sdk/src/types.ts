// Resource shapes of the /v1 API (docs/api-reference.md). Objects may carry more fields than listed here; the
// index signatures keep the SDK forward-compatible with fields the service adds.

export type Metadata = Record<string, string>;

export interface ListParams {
  /** 1..100, default 20. */
  limit?: number;
  startingAfter?: string;
}

export interface List<T> {
  object: "list";
  data: T[];
  hasMore: boolean;
}

interface ServiceObject {
  id: string;
  object: string;
  livemode: boolean;
  [field: string]: unknown;
}

export interface Customer extends ServiceObject {
  object: "customer";
  name: string | null;
  email: string | null;
  metadata?: Metadata | null;
  createdAt: string;
}

export interface CreateCustomerParams {
  name?: string;
  email?: string;
  metadata?: Metadata;
}

export interface FundCustomerParams {
  amount: number;
  currency: string;
}

export interface LineItem {
  name: string;
  quantity: number;
  unitAmount: number;
  /** Set on items sold from the catalog. */
  productId?: string;
}

/** A line of a checkout priced from the catalog (docs/products.md). */
export interface CatalogLineItem {
  productId: string;
  quantity: number;
}

export interface Product extends ServiceObject {
  object: "product";
  name: string;
  description: string | null;
  unitAmount: number;
  currency: string;
  active: boolean;
  metadata: Metadata;
  createdAt: string;
  updatedAt: string;
}

export interface CreateProductParams {
  name: string;
  description?: string;
  unitAmount: number;
  currency: string;
  metadata?: Metadata;
  active?: boolean;
}

export type UpdateProductParams = Partial<Omit<CreateProductParams, "description">> & { description?: string | null };

/** A hosted paid resource (docs/x402.md): sold at `x402Url` (x402) and `mppUrl` (MPP). */
export interface PaidResource extends ServiceObject {
  object: "paid_resource";
  name: string;
  description: string | null;
  /** Price in minor units of `currency`. */
  amount: number;
  currency: string;
  /** Forward target of a paid request (null when `content` is served). */
  url: string | null;
  /** JSON returned once paid (null when the request is forwarded to `url`). */
  content: unknown;
  metadata: Metadata;
  active: boolean;
  x402Url: string;
  mppUrl: string;
  createdAt: string;
  updatedAt: string;
}

export interface CreatePaidResourceParams {
  name: string;
  description?: string;
  amount: number;
  currency: string;
  url?: string;
  content?: unknown;
  metadata?: Metadata;
  active?: boolean;
}

export type UpdatePaidResourceParams = Partial<Omit<CreatePaidResourceParams, "description">> & { description?: string | null };

export type SharedPaymentTokenStatus = "active" | "redeemed" | "revoked" | "expired" | (string & {});

export interface SharedPaymentToken extends ServiceObject {
  object: "shared_payment_token";
  status: SharedPaymentTokenStatus;
  paymentMethod: string;
  maxAmount: number;
  currency: string;
  merchantId: string | null;
  expiresAt: string;
  metadata: Metadata;
  redeemedAt: string | null;
  redeemedAmount: number | null;
  paymentIntentId: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export interface MintSharedPaymentTokenParams {
  /** A test payment method, a test card number, or one of YOUR own customers' wallets (`cus_...`). */
  paymentMethod: string;
  maxAmount: number;
  currency: string;
  /** The only merchant that may redeem it (absent: any merchant). */
  merchantId?: string;
  /** ISO-8601; default one hour from now, at most 30 days. */
  expiresAt?: string;
  metadata?: Metadata;
}

export interface RedeemSharedPaymentTokenParams {
  amount?: number;
  currency?: string;
  items?: (LineItem | CatalogLineItem)[];
  description?: string;
  metadata?: Metadata;
  productRef?: string;
}

export type CheckoutStatus = "open" | "complete" | "expired" | "canceled" | (string & {});

export interface Checkout extends ServiceObject {
  object: "checkout";
  status: CheckoutStatus;
  amount: number;
  currency: string;
  items: LineItem[] | null;
  url: string;
  expiresAt: string;
  paymentIntentId: string;
  orderId: string;
  metadata?: Metadata | null;
  createdAt: string;
}

export interface CreateCheckoutParams {
  amount?: number;
  /** Optional only when every item is a catalog item. */
  currency?: string;
  items?: (LineItem | CatalogLineItem)[];
  description?: string;
  customerId?: string;
  expiresInSeconds?: number;
  successUrl?: string;
  cancelUrl?: string;
  metadata?: Metadata;
  productRef?: string;
}

export interface CaptureCheckoutParams {
  /** A test payment method (`pm_card_visa`, ...) or a customer id whose test wallet pays. */
  paymentMethod: string;
  billingCountry?: string;
}

export type PaymentIntentStatus = "requires_payment" | "captured" | "settled" | "refunded" | "failed" | "expired" | "canceled";

export interface PaymentIntent extends ServiceObject {
  object: "payment_intent";
  status: PaymentIntentStatus;
  amount: number;
  amountCaptured: number;
  amountRefunded: number;
  currency: string;
  checkoutId: string | null;
  orderId: string | null;
  customerId: string | null;
  settledAt: string | null;
  failureReason: string | null;
  /** Paywall payments: the sku the payment is bound to (null for other payments). */
  sku?: string | null;
  /** A sale of a hosted paid resource (xr_); null for other payments. */
  paidResourceId?: string | null;
  /** Who paid, as the protocol names the payer (x402: the signer's address); null for other payments. */
  payer?: string | null;
  /** The payer's name and billing country as given at capture (null when not given). */
  billingDetails?: { name: string | null; country: string | null };
  /** Payments of a meter (its settlements and its prepaid funding): the meter's id (null for other payments). */
  meterId?: string | null;
  /** Why a meter's payment was made: `settlement` (billing accrued usage), `funding` (a prepaid budget charged up front), null for other payments. */
  meterPurpose?: MeterPaymentPurpose | null;
  /** How the payment came: `api`, `pay_page`, `paywall`, `meter`, `spt`, `x402`, `mpp`, `acp`, `a2a`, `ap2`, `mcp`. */
  source?: PaymentSource;
  createdAt: string;
}

export type PaymentSource =
  "api" | "pay_page" | "paywall" | "meter" | "spt" | "x402" | "mpp" | "acp" | "a2a" | "ap2" | "mcp" | (string & {});

export type MeterPaymentPurpose = "settlement" | "funding" | (string & {});

export type OrderStatus = "pending" | "paid" | "partially_refunded" | "refunded" | "canceled";

export interface Order extends ServiceObject {
  object: "order";
  status: OrderStatus;
  checkoutId: string | null;
  paymentIntentId: string;
  amount: number;
  amountRefunded: number;
  currency: string;
  items: LineItem[] | null;
  customerId: string | null;
  /** The source of its PaymentIntent. */
  source?: PaymentSource;
  createdAt: string;
}

export type CreateRefundParams = ({ paymentIntentId: string; orderId?: never } | { orderId: string; paymentIntentId?: never }) & {
  amount?: number;
  reason?: string;
};

export interface Refund extends ServiceObject {
  object: "refund";
  status: "succeeded" | (string & {});
  amount: number;
  currency: string;
  paymentIntentId: string;
  orderId: string | null;
  reason: string | null;
  createdAt: string;
}

export interface Balance {
  object: "balance";
  pending: { currency: string; amount: number }[];
  payable: { currency: string; amount: number }[];
}

export type EventType =
  | "order.paid"
  | "order.refunded"
  | "order.canceled"
  | "payment_intent.captured"
  | "payment_intent.settled"
  | "payment_intent.refunded"
  | "payment_intent.failed"
  | "payment_intent.expired"
  | "payment_intent.canceled";

export interface ServiceEvent extends ServiceObject {
  object: "event";
  type: EventType | (string & {});
  data: { object: unknown; [field: string]: unknown };
  createdAt: string;
}

export interface WebhookEndpoint extends ServiceObject {
  object: "webhook_endpoint";
  url: string;
  enabledEvents: string[];
  status: "enabled" | "disabled" | (string & {});
  description?: string | null;
  /** Present only in the response that created or rotated it. */
  secret?: string;
  createdAt: string;
}

export interface CreateWebhookEndpointParams {
  url: string;
  enabledEvents?: EventType[];
  description?: string;
}

export interface UpdateWebhookEndpointParams {
  url?: string;
  enabledEvents?: EventType[];
  description?: string;
  status?: "enabled" | "disabled";
}

export interface WebhookDeliveryAttempt {
  id: string;
  eventId: string;
  status: string;
  responseStatus: number | null;
  durationMs: number | null;
  /** Why the attempt failed, as a class: timeout, connection_refused, connection_reset, tls_error, dns_error, blocked_address, http_error, connection_error, endpoint_disabled, internal_error. */
  error: string | null;
  attemptedAt: string;
  nextAttemptAt: string | null;
  [field: string]: unknown;
}

export type PaywallReasonCode = "not_captured" | "insufficient_amount" | "currency_mismatch" | "reference_mismatch" | "not_found";

export interface PaywallVerifyParams {
  paymentIntentId: string;
  merchantId: string;
  amount: number;
  currency: string;
  sku: string;
}

export type PaywallVerifyResult =
  | { valid: true; paymentIntent?: PaymentIntent }
  | { valid: false; reasonCode: PaywallReasonCode; details?: { paymentIntentStatus?: string } };

export interface PaywallPayParams {
  merchantId: string;
  amount: number;
  currency: string;
  sku: string;
  paymentMethod: string;
  /** The gate's productRef, when it has one: the payee's order then names that product. */
  productRef?: string;
}

export interface PaywallPayResult {
  paymentIntentId: string;
  status: "captured" | (string & {});
  [field: string]: unknown;
}

export type PaywallRedemptionResult = { redeemed: true } | { redeemed: false; result: "already_redeemed" };

/** POST /v1/paywall/redemptions with the terms: verified and redeemed in one request (docs/paywall.md). */
export type PaywallVerifiedRedemptionResult =
  | { redeemed: true; paymentIntent?: PaymentIntent }
  | { redeemed: false; result: "already_redeemed" }
  | { redeemed: false; valid: false; reasonCode: PaywallReasonCode; details?: { paymentIntentStatus?: string } };

export interface Meter extends ServiceObject {
  object: "meter";
  /** open | past_due (an aggregate charge was declined) | closed. */
  status: string;
  customerId: string;
  currency: string;
  prepaid: boolean;
  /** What the aggregate PaymentIntents charge (default: the customer's own wallet). */
  paymentMethod: string;
  /** Usage accrued and not yet settled, in base units (see baseUnitsPerMinor); the carried fraction lives here. */
  accruedBase: number;
  /** Prepaid: base units held by open reservations. */
  reservedBase: number;
  /** Prepaid: the funded budget, in base units: fundedMinor x baseUnitsPerMinor (null for post-paid meters). */
  budgetBase: number | null;
  /** Prepaid: minor units charged up front by captured fundings (creation and top-ups); null for post-paid meters. */
  fundedMinor: number | null;
  /** Prepaid: minor units of unused funds refunded after the meter closed; null for post-paid meters. */
  refundedMinor: number | null;
  /** Prepaid: budgetBase - usedBase - reservedBase (null for post-paid meters). */
  availableBase: number | null;
  /** Everything ever metered, in base units. */
  usedBase: number;
  /** Post-paid: minor units billed in aggregate PaymentIntents. Prepaid: what the usage drew from the funds (set at close). */
  billedMinor: number;
  /** Minor units of declined aggregate charges not yet collected (the meter is past_due); retryPayment bills them. */
  outstandingMinor: number;
  settlementCount: number;
  thresholdMinor: number;
  /** Base units per minor unit (default 1,000,000): a price of 4,000 base units is 0.004 cents. */
  baseUnitsPerMinor: number;
  closedAt: string | null;
  createdAt: string;
}

export interface CreateMeterParams {
  customerId: string;
  currency: string;
  thresholdMinor: number;
  prepaid: boolean;
  /**
   * Prepaid only: the budget, in minor units, charged to paymentMethod during the request. Declined: 402
   * PAYMENT_DECLINED with `details.meterId` and `details.paymentIntentId`; the meter stays open with no budget.
   */
  budgetMinor?: number;
  /** Default: the customer's own wallet (customerId). */
  paymentMethod?: string;
  /** 1..1,000,000 (the default). */
  baseUnitsPerMinor?: number;
  metadata?: Metadata;
}

export interface ListMetersParams extends ListParams {
  status?: "open" | "past_due" | "closed";
  customerId?: string;
}

export interface MeterTopUpParams {
  /** Charged now and added to the prepaid budget, in minor units. */
  amountMinor: number;
  /** What pays this top-up (a test card `pm_card_...` or a `cus_...` wallet); default: the meter's payment method. */
  paymentMethod?: string;
}

/** POST /v1/meters/:id/fund, with the PAYER's own key: fund another merchant's prepaid meter. */
export interface MeterFundParams {
  /** Charged now and added to the meter's prepaid budget, in minor units. */
  amountMinor: number;
  /** The meter's currency (the gate names it); another is refused (400), so you never pay in a currency you did not name. */
  currency: string;
  /** What pays: a test card `pm_card_...` or a wallet of one of YOUR OWN customers (`cus_...`; the meter's merchant sees only "customer_wallet"). */
  paymentMethod: string;
  /** Screened against the service's sanctioned countries before any charge. */
  billingCountry?: string;
}

/** The answer to the payer: its funding only, nothing of the merchant's meter. */
export interface MeterFunding {
  object: "meter_funding";
  meterId: string;
  paymentIntentId: string;
  status: PaymentIntentStatus;
  amount: number;
  currency: string;
  livemode: boolean;
}

export interface MeterRetryPaymentParams {
  /** Bill the outstanding amount to this payment method (it becomes the meter's); default: the meter's own. */
  paymentMethod?: string;
}

export interface MeterUsageParams {
  quantity: number;
  /** Price per unit in BASE units (baseUnitsPerMinor per minor unit). */
  unitPriceMinor: number;
  idempotencyKey: string;
}

interface PricedUsage {
  id: string;
  meterId: string;
  quantity: number;
  /** As sent: price per unit in base units. */
  unitPriceMinor: number;
  unitPriceBase: number;
  /** The unit price in minor units as a decimal string ("0.4"). */
  unitPriceDecimal: string;
  amountBase: number;
  livemode: boolean;
  createdAt: string;
  [field: string]: unknown;
}

export interface MeterUsageRecord extends PricedUsage {
  object: "meter_usage_record";
  idempotencyKey: string;
}

/** One record of `meters.recordUsageBatch` (POST /v1/meters/usage_batches). */
export interface MeterUsageBatchRecord extends MeterUsageParams {
  meterId: string;
  /** When the usage happened (ISO-8601 with a time zone; within the last 35 days, at most 5 minutes ahead). */
  timestamp?: string;
}

export type MeterUsageBatchResultStatus = "accepted" | "duplicate" | "refused";

export interface MeterUsageBatchResult {
  idempotencyKey: string;
  meterId: string;
  /** accepted: counted now; duplicate: counted before under this key (counts once); refused: see `error`. */
  status: MeterUsageBatchResultStatus;
  /** The record that counts (accepted or duplicate). */
  usageRecordId?: string;
  /** Why a record was refused: NOT_FOUND, CONFLICT (prepaid, closed, unbilled limit), PAYMENT_DECLINED (past due), VALIDATION_ERROR (key reused with other usage). */
  error?: { code: string; message: string };
}

export interface MeterUsageBatch {
  object: "usage_batch";
  accepted: number;
  duplicates: number;
  refused: number;
  /** One per record, in request order. */
  results: MeterUsageBatchResult[];
}

export interface MeterUsageSummaryParams {
  interval?: "hour" | "day";
  /** ISO-8601 with a time zone; widened to whole buckets. */
  from?: string;
  to?: string;
}

export interface MeterUsageSummaryBucket {
  /** The bucket's first instant (UTC hour or day). */
  start: string;
  quantity: number;
  /** Base units metered in the bucket (records, committed reservations). */
  amountBase: number;
}

export interface MeterUsageSummary {
  object: "usage_summary";
  meterId: string;
  interval: "hour" | "day";
  from: string;
  to: string;
  baseUnitsPerMinor: number;
  data: MeterUsageSummaryBucket[];
}

export interface MeterReservationParams {
  quantity: number;
  /** Price per unit in BASE units (baseUnitsPerMinor per minor unit). */
  unitPriceMinor: number;
  idempotencyKey?: string;
}

export interface MeterReservation extends PricedUsage {
  object: "meter_reservation";
  /** held | committed | released. */
  status: string;
  idempotencyKey: string | null;
  /** failed (released by the caller) | expired (by the service) | closed (the meter closed). */
  releaseReason: string | null;
  expiresAt: string;
  /**
   * Answers of POST /v1/meters/:id/reservations only: true when this request created the hold (201; also
   * on its own retries), false when another request had (200). Only a created hold pays for a call.
   */
  created?: boolean;
}
