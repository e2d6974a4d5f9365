// The /v1 API grouped by resource (docs/api-reference.md). Each method is one request through the RequestSender,
// which adds the API key, the Idempotency-Key of every POST, the time-out and the retries.
import type { HttpMethod, RequestOptions } from "./request-sender";
import type * as T from "./types";

export type Send = <R>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions) => Promise<R>;

const id = (value: string) => encodeURIComponent(value);

/** `?limit=..&startingAfter=..&...` from defined values only. */
export function query(params: object = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function customersResource(send: Send) {
  return {
    create: (params: T.CreateCustomerParams = {}, options?: RequestOptions) => send<T.Customer>("POST", "/v1/customers", params, options),
    retrieve: (customerId: string, options?: RequestOptions) =>
      send<T.Customer>("GET", `/v1/customers/${id(customerId)}`, undefined, options),
    list: (params?: T.ListParams, options?: RequestOptions) =>
      send<T.List<T.Customer>>("GET", `/v1/customers${query(params)}`, undefined, options),
    /** Test mode only: tops up the customer's test wallet. */
    fund: (customerId: string, params: T.FundCustomerParams, options?: RequestOptions) =>
      send<T.Customer>("POST", `/v1/customers/${id(customerId)}/fund`, params, options),
  };
}

export function checkoutsResource(send: Send) {
  return {
    create: (params: T.CreateCheckoutParams, options?: RequestOptions) => send<T.Checkout>("POST", "/v1/checkouts", params, options),
    retrieve: (checkoutId: string, options?: RequestOptions) =>
      send<T.Checkout>("GET", `/v1/checkouts/${id(checkoutId)}`, undefined, options),
    list: (params?: T.ListCheckoutsParams, options?: RequestOptions) =>
      send<T.List<T.Checkout>>("GET", `/v1/checkouts${query(params)}`, undefined, options),
    capture: (checkoutId: string, params: T.CaptureCheckoutParams, options?: RequestOptions) =>
      send<T.Order>("POST", `/v1/checkouts/${id(checkoutId)}/capture`, params, options),
    cancel: (checkoutId: string, options?: RequestOptions) =>
      send<T.Checkout>("POST", `/v1/checkouts/${id(checkoutId)}/cancel`, {}, options),
  };
}

export function paymentIntentsResource(send: Send) {
  return {
    retrieve: (paymentIntentId: string, options?: RequestOptions) =>
      send<T.PaymentIntent>("GET", `/v1/payment_intents/${id(paymentIntentId)}`, undefined, options),
    list: (params?: T.ListPaymentIntentsParams, options?: RequestOptions) =>
      send<T.List<T.PaymentIntent>>("GET", `/v1/payment_intents${query(params)}`, undefined, options),
  };
}

export function ordersResource(send: Send) {
  return {
    retrieve: (orderId: string, options?: RequestOptions) => send<T.Order>("GET", `/v1/orders/${id(orderId)}`, undefined, options),
    list: (params?: T.ListOrdersParams, options?: RequestOptions) =>
      send<T.List<T.Order>>("GET", `/v1/orders${query(params)}`, undefined, options),
  };
}

export function refundsResource(send: Send) {
  return {
    create: (params: T.CreateRefundParams, options?: RequestOptions) => send<T.Refund>("POST", "/v1/refunds", params, options),
    retrieve: (refundId: string, options?: RequestOptions) => send<T.Refund>("GET", `/v1/refunds/${id(refundId)}`, undefined, options),
    list: (params?: T.ListRefundsParams, options?: RequestOptions) =>
      send<T.List<T.Refund>>("GET", `/v1/refunds${query(params)}`, undefined, options),
  };
}

export function balanceResource(send: Send) {
  return {
    retrieve: (options?: RequestOptions) => send<T.Balance>("GET", "/v1/balance", undefined, options),
  };
}

export function eventsResource(send: Send) {
  return {
    retrieve: (eventId: string, options?: RequestOptions) => send<T.ServiceEvent>("GET", `/v1/events/${id(eventId)}`, undefined, options),
    list: (params?: T.ListEventsParams, options?: RequestOptions) =>
      send<T.List<T.ServiceEvent>>("GET", `/v1/events${query(params)}`, undefined, options),
    resend: (eventId: string, options?: RequestOptions) => send<T.EventResend>("POST", `/v1/events/${id(eventId)}/resend`, {}, options),
  };
}

export function webhookEndpointsResource(send: Send) {
  const path = (endpointId: string) => `/v1/webhook-endpoints/${id(endpointId)}`;
  return {
    create: (params: T.CreateWebhookEndpointParams, options?: RequestOptions) =>
      send<T.WebhookEndpoint>("POST", "/v1/webhook-endpoints", params, options),
    retrieve: (endpointId: string, options?: RequestOptions) => send<T.WebhookEndpoint>("GET", path(endpointId), undefined, options),
    list: (params?: T.ListParams, options?: RequestOptions) =>
      send<T.List<T.WebhookEndpoint>>("GET", `/v1/webhook-endpoints${query(params)}`, undefined, options),
    update: (endpointId: string, params: T.UpdateWebhookEndpointParams, options?: RequestOptions) =>
      send<T.WebhookEndpoint>("PATCH", path(endpointId), params, options),
    del: (endpointId: string, options?: RequestOptions) => send<T.DeletedWebhookEndpoint>("DELETE", path(endpointId), undefined, options),
    /** Returns the endpoint with its new `secret`; the old secret keeps signing beside it for 24 h. */
    rotateSecret: (endpointId: string, options?: RequestOptions) =>
      send<T.WebhookEndpoint>("POST", `${path(endpointId)}/rotate-secret`, {}, options),
    listDeliveries: (endpointId: string, params?: T.ListParams, options?: RequestOptions) =>
      send<T.List<T.WebhookDeliveryAttempt>>("GET", `${path(endpointId)}/deliveries${query(params)}`, undefined, options),
  };
}

export function paywallResource(send: Send) {
  return {
    /** Did this PaymentIntent pay exactly these terms? (merchant key) */
    verify: (params: T.PaywallVerifyParams, options?: RequestOptions) =>
      send<T.PaywallVerifyResult>("POST", "/v1/paywall/verify", params, options),
    /** Pays a gate's terms with the PAYER's own key; returns the paymentIntentId to present as proof. */
    pay: (params: T.PaywallPayParams, options?: RequestOptions) => send<T.PaywallPayResult>("POST", "/v1/paywall/pay", params, options),
    /** Atomic first-redemption-wins (merchant key): `{ redeemed: true }` once, then `already_redeemed`. */
    redeem: (paymentIntentId: string, options?: RequestOptions) =>
      send<T.PaywallRedemptionResult>("POST", "/v1/paywall/redemptions", { paymentIntentId }, options),
    /**
     * Verify and redeem in ONE request (merchant key): redeemed only when the PaymentIntent pays these
     * terms; otherwise `{ redeemed: false, valid: false, reasonCode }` and nothing is consumed.
     */
    verifyAndRedeem: (params: T.PaywallVerifyParams, options?: RequestOptions) =>
      send<T.PaywallVerifiedRedemptionResult>("POST", "/v1/paywall/redemptions", params, options),
  };
}

export function metersResource(send: Send) {
  const path = (meterId: string) => `/v1/meters/${id(meterId)}`;
  const reservation = (meterId: string, reservationId: string) => `${path(meterId)}/reservations/${id(reservationId)}`;
  return {
    create: (params: T.CreateMeterParams, options?: RequestOptions) => send<T.Meter>("POST", "/v1/meters", params, options),
    retrieve: (meterId: string, options?: RequestOptions) => send<T.Meter>("GET", path(meterId), undefined, options),
    list: (params?: T.ListMetersParams, options?: RequestOptions) =>
      send<T.List<T.Meter>>("GET", `/v1/meters${query(params)}`, undefined, options),
    /** Post-paid usage; `idempotencyKey` in the body makes a retried record count once. */
    recordUsage: (meterId: string, params: T.MeterUsageParams, options?: RequestOptions) =>
      send<T.MeterUsageRecord>("POST", `${path(meterId)}/usage`, params, options),
    /**
     * Post-paid usage in one request: 1..1,000 records across your meters, each counted once by its
     * (meterId, idempotencyKey) -> a result per record (accepted, duplicate or refused with its error). A
     * malformed record is a ServiceError 400 VALIDATION_ERROR and nothing is counted. Retries (the SDK's own,
     * with the same Idempotency-Key, or yours) never count a record twice.
     */
    recordUsageBatch: (records: T.MeterUsageBatchRecord[], options?: RequestOptions) =>
      send<T.MeterUsageBatch>("POST", "/v1/meters/usage_batches", { records }, options),
    /**
     * The meter's usage by hour or day (UTC) over a window (default: the last 24 hours by hour, 30 days by
     * day; at most 31 days by hour, 366 by day): every bucket, empty ones as zeros, oldest first.
     */
    usageSummary: (meterId: string, params: T.MeterUsageSummaryParams = {}, options?: RequestOptions) =>
      send<T.MeterUsageSummary>("GET", `${path(meterId)}/usage_summary${query(params)}`, undefined, options),
    /** Prepaid: holds quantity x unitPriceMinor base units of the budget before the call. */
    reserve: (meterId: string, params: T.MeterReservationParams, options?: RequestOptions) =>
      send<T.MeterReservation>("POST", `${path(meterId)}/reservations`, params, options),
    commitReservation: (meterId: string, reservationId: string, options?: RequestOptions) =>
      send<T.MeterReservation>("POST", `${reservation(meterId, reservationId)}/commit`, {}, options),
    releaseReservation: (meterId: string, reservationId: string, options?: RequestOptions) =>
      send<T.MeterReservation>("POST", `${reservation(meterId, reservationId)}/release`, {}, options),
    /**
     * Prepaid: charges amountMinor now and raises the budget by it -> the meter. A declined charge is a
     * ServiceError 402 PAYMENT_DECLINED (`details.meterId`, `details.paymentIntentId`), budget unchanged.
     * Pass an `idempotencyKey` to make your own retries safe: the same key never charges twice.
     */
    topUp: (meterId: string, params: T.MeterTopUpParams, options?: RequestOptions) =>
      send<T.Meter>("POST", `${path(meterId)}/top-up`, params, options),
    /**
     * With the PAYER's own key (the agent gated by insufficient_budget; the gate's `fundUrl`): charges
     * amountMinor now from your test card or one of your own customers' wallets and raises another
     * merchant's prepaid budget by it -> `{ object: "meter_funding", paymentIntentId, status, ... }`. A decline
     * is a ServiceError 402 PAYMENT_DECLINED; the same `idempotencyKey` never charges twice.
     */
    fund: (meterId: string, params: T.MeterFundParams, options?: RequestOptions) =>
      send<T.MeterFunding>("POST", `${path(meterId)}/fund`, params, options),
    /** Past due: bills the outstanding amount in one new aggregate PaymentIntent (the tick charges it) -> the meter. */
    retryPayment: (meterId: string, params: T.MeterRetryPaymentParams = {}, options?: RequestOptions) =>
      send<T.Meter>("POST", `${path(meterId)}/retry-payment`, params, options),
    /** Settles what has accrued. */
    close: (meterId: string, options?: RequestOptions) => send<T.Meter>("POST", `${path(meterId)}/close`, {}, options),
  };
}

export function productsResource(send: Send) {
  return {
    create: (params: T.CreateProductParams, options?: RequestOptions) => send<T.Product>("POST", "/v1/products", params, options),
    retrieve: (productId: string, options?: RequestOptions) => send<T.Product>("GET", `/v1/products/${id(productId)}`, undefined, options),
    list: (params?: T.ListProductsParams, options?: RequestOptions) =>
      send<T.List<T.Product>>("GET", `/v1/products${query(params)}`, undefined, options),
    update: (productId: string, params: T.UpdateProductParams, options?: RequestOptions) =>
      send<T.Product>("POST", `/v1/products/${id(productId)}`, params, options),
    /** Archives the product (`active: false`); it stays readable, checkouts refuse it. */
    archive: (productId: string, options?: RequestOptions) =>
      send<T.Product>("DELETE", `/v1/products/${id(productId)}`, undefined, options),
  };
}

export function paidResourcesResource(send: Send) {
  const path = (resourceId: string) => `/v1/paid_resources/${id(resourceId)}`;
  return {
    /** A hosted paid resource (xr_): served publicly at its x402Url and mppUrl; `url` (forward) or `content` (JSON). */
    create: (params: T.CreatePaidResourceParams, options?: RequestOptions) =>
      send<T.PaidResource>("POST", "/v1/paid_resources", params, options),
    retrieve: (resourceId: string, options?: RequestOptions) => send<T.PaidResource>("GET", path(resourceId), undefined, options),
    list: (params?: T.ListPaidResourcesParams, options?: RequestOptions) =>
      send<T.List<T.PaidResource>>("GET", `/v1/paid_resources${query(params)}`, undefined, options),
    update: (resourceId: string, params: T.UpdatePaidResourceParams, options?: RequestOptions) =>
      send<T.PaidResource>("POST", path(resourceId), params, options),
    /** Archives the resource (`active: false`): no longer served; its sales stay. */
    archive: (resourceId: string, options?: RequestOptions) => send<T.PaidResource>("DELETE", path(resourceId), undefined, options),
    /** A new forwarding secret (`forwardingSecret`, in this answer only); the previous one signs beside it for a while (default 24 h). */
    rotateForwardingSecret: (resourceId: string, params: Partial<T.RotateForwardingSecretParams> = {}, options?: RequestOptions) =>
      send<T.PaidResource>("POST", `${path(resourceId)}/rotate-forwarding-secret`, params, options),
  };
}

export function sharedPaymentTokensResource(send: Send) {
  const path = (tokenId: string) => `/v1/shared_payment_tokens/${id(tokenId)}`;
  return {
    /** The PAYER mints a scoped, single-use token with its own key. */
    create: (params: T.MintSharedPaymentTokenParams, options?: RequestOptions) =>
      send<T.SharedPaymentToken>("POST", "/v1/shared_payment_tokens", params, options),
    retrieve: (tokenId: string, options?: RequestOptions) => send<T.SharedPaymentToken>("GET", path(tokenId), undefined, options),
    list: (params?: T.ListSharedPaymentTokensParams, options?: RequestOptions) =>
      send<T.List<T.SharedPaymentToken>>("GET", `/v1/shared_payment_tokens${query(params)}`, undefined, options),
    revoke: (tokenId: string, options?: RequestOptions) => send<T.SharedPaymentToken>("POST", `${path(tokenId)}/revoke`, {}, options),
    /** The MERCHANT charges the token once: the captured PaymentIntent (`source: "spt"`). */
    redeem: (tokenId: string, params: T.RedeemSharedPaymentTokenParams, options?: RequestOptions) =>
      send<T.PaymentIntent>("POST", `${path(tokenId)}/redeem`, params, options),
  };
}
