// Shapes of the /v1 API under the SDK's names. Every one comes from the service's OpenAPI document
// (docs/openapi.json, made from the routes' zod schemas), through generated/openapi.ts (`npm run sdk:types`):
// a response object or request body by its component name, list and query parameters from the operation
// that takes them. Nothing here restates a field.
import type { components, operations } from "./generated/openapi";

type Schemas = components["schemas"];
/** The query parameters of one operation of the document. */
type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
/** A list filter the API reads as "true" / "false", taken as a boolean (the SDK writes it into the query). */
type BooleanFilter<Params, Field extends keyof Params> = Omit<Params, Field> & { [K in Field]?: boolean };

export type Metadata = Schemas["Customer"]["metadata"];
export type ListParams = Query<"listCustomers">;
/** One page of a list: every list of the API has this envelope. */
export type List<T> = Omit<Schemas["CustomerList"], "data"> & { data: T[] };

export type Customer = Schemas["Customer"];
export type CreateCustomerParams = Schemas["CreateCustomerParams"];
export type FundCustomerParams = Schemas["FundCustomerParams"];

export type LineItem = Schemas["LineItem"];
/** A line of a checkout priced from the catalog (docs/products.md). */
export type CatalogLineItem = Exclude<NonNullable<CreateCheckoutParams["items"]>[number], { name: string }>;

export type Product = Schemas["Product"];
export type CreateProductParams = Schemas["CreateProductParams"];
export type UpdateProductParams = Schemas["UpdateProductParams"];
export type ListProductsParams = BooleanFilter<Query<"listProducts">, "active">;

/** A hosted paid resource (docs/x402.md): sold at `x402Url` (x402) and `mppUrl` (MPP). */
export type PaidResource = Schemas["PaidResource"];
export type CreatePaidResourceParams = Schemas["CreatePaidResourceParams"];
export type UpdatePaidResourceParams = Schemas["UpdatePaidResourceParams"];
export type RotateForwardingSecretParams = Schemas["RotateForwardingSecretParams"];
export type ListPaidResourcesParams = BooleanFilter<Query<"listPaidResources">, "active">;

/** Where a merchant's live x402 payments on one network go (docs/x402.md, "Going live"). */
export type X402PayoutAddress = Schemas["X402PayoutAddress"];
export type SetX402PayoutAddressParams = Schemas["SetX402PayoutAddressParams"];

export type SharedPaymentToken = Schemas["SharedPaymentToken"];
export type SharedPaymentTokenStatus = SharedPaymentToken["status"];
export type MintSharedPaymentTokenParams = Schemas["MintSharedPaymentTokenParams"];
export type RedeemSharedPaymentTokenParams = Schemas["RedeemSharedPaymentTokenParams"];
export type ListSharedPaymentTokensParams = Query<"listSharedPaymentTokens">;
export type AcpSigningKey = Schemas["AcpSigningKey"];
export type CreateAcpSigningKeyParams = Schemas["CreateAcpSigningKeyParams"];
export type AcpCommerceSettings = Schemas["AcpCommerceSettings"];
export type UpdateAcpCommerceSettingsParams = Schemas["UpdateAcpCommerceSettingsParams"];
export type AcpDiscountCode = Schemas["AcpDiscountCode"];
export type CreateAcpDiscountCodeParams = Schemas["CreateAcpDiscountCodeParams"];
export type DeletedAcpDiscountCode = Schemas["DeletedAcpDiscountCode"];

export type Checkout = Schemas["Checkout"];
export type CheckoutStatus = Checkout["status"];
export type CreateCheckoutParams = Schemas["CreateCheckoutParams"];
export type CaptureCheckoutParams = Schemas["CaptureCheckoutParams"];
export type ListCheckoutsParams = Query<"listCheckouts">;

export type PaymentIntent = Schemas["PaymentIntent"];
export type PaymentIntentStatus = PaymentIntent["status"];
/** How the payment came (`api`, `pay_page`, `paywall`, `meter`, `spt`, `x402`, `mpp`, ...). */
export type PaymentSource = PaymentIntent["source"];
/** Why a meter's payment was made: `settlement` (billing accrued usage) or `funding` (a prepaid budget). */
export type MeterPaymentPurpose = NonNullable<PaymentIntent["meterPurpose"]>;
export type ListPaymentIntentsParams = Query<"listPaymentIntents">;
/** A captured PaymentIntent's signed receipt, `{ object: "receipt", paymentIntentId, jws }`: check it with verifyReceipt. */
export type Receipt = Schemas["Receipt"];

export type Order = Schemas["Order"];
export type OrderStatus = Order["status"];
export type ListOrdersParams = Query<"listOrders">;

export type Refund = Schemas["Refund"];
export type CreateRefundParams = Schemas["CreateRefundParams"];
export type ListRefundsParams = Query<"listRefunds">;

/** A dispute of a captured payment (docs/disputes.md). */
export type Dispute = Schemas["Dispute"];
export type UpdateDisputeParams = Schemas["UpdateDisputeParams"];
export type EvidencePack = Schemas["EvidencePack"];
export type SpendingAgent = Schemas["SpendingAgent"];
export type CreateSpendingAgentParams = Schemas["CreateSpendingAgentParams"];
export type SetSpendingPolicyParams = Schemas["SetSpendingPolicyParams"];
export type SpendingPolicyResult = Schemas["SpendingPolicyResult"];
export type UpdateSpendingAgentParams = Schemas["UpdateSpendingAgentParams"];
export type DeletedSpendingAgent = Schemas["DeletedSpendingAgent"];
export type WalletChallenge = Schemas["WalletChallenge"];
export type CreateWalletChallengeParams = Schemas["CreateWalletChallengeParams"];
export type ProveSpendingAgentWalletParams = Schemas["ProveSpendingAgentWalletParams"];
export type ListSpendingAgentsParams = Query<"listSpendingAgents">;
/** A spending agent's charge above its approval threshold, waiting for the payer (docs/approvals.md). */
export type ApprovalRequest = Schemas["ApprovalRequest"];
export type ListApprovalRequestsParams = Query<"listApprovalRequests">;
export type ListDisputesParams = Query<"listDisputes">;

export type Balance = Schemas["Balance"];

export type ServiceEvent = Schemas["ServiceEvent"];
export type EventType = ServiceEvent["type"];
export type ListEventsParams = Query<"listEvents">;
export type EventResend = Schemas["EventResend"];

export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type CreateWebhookEndpointParams = Schemas["CreateWebhookEndpointParams"];
export type UpdateWebhookEndpointParams = Schemas["UpdateWebhookEndpointParams"];
export type DeletedWebhookEndpoint = Schemas["DeletedWebhookEndpoint"];
export type WebhookDeliveryAttempt = Schemas["WebhookDeliveryAttempt"];
export type WebhookEndpointHealth = Schemas["WebhookEndpointHealth"];
export type ReplayFailedDeliveriesParams = Schemas["ReplayFailedDeliveriesParams"];
export type WebhookReplay = Schemas["WebhookReplay"];

export type PaywallVerifyParams = Schemas["PaywallVerifyParams"];
export type PaywallVerifyResult = Schemas["PaywallVerifyResult"];
export type PaywallReasonCode = Extract<PaywallVerifyResult, { valid: false }>["reasonCode"];
export type PaywallPayParams = Schemas["PaywallPayParams"];
export type PaywallPayResult = Schemas["PaywallPayResult"];
/** POST /v1/paywall/redemptions with the terms: verified and redeemed in one request (docs/paywall.md). */
export type PaywallVerifiedRedemptionResult = Schemas["PaywallRedemptionResult"];
/** POST /v1/paywall/redemptions with the id alone: nothing to verify, so never a verification failure. */
export type PaywallRedemptionResult = Exclude<PaywallVerifiedRedemptionResult, { valid: false }>;

export type Meter = Schemas["Meter"];
export type CreateMeterParams = Schemas["CreateMeterParams"];
export type ListMetersParams = Query<"listMeters">;
export type MeterTopUpParams = Schemas["MeterTopUpParams"];
/** POST /v1/meters/:id/fund, with the PAYER's own key: fund another merchant's prepaid meter. */
export type MeterFundParams = Schemas["MeterFundParams"];
/** The answer to the payer: its funding only, nothing of the merchant's meter. */
export type MeterFunding = Schemas["MeterFunding"];
export type MeterRetryPaymentParams = Schemas["MeterRetryPaymentParams"];
export type MeterUsageParams = Schemas["MeterUsageParams"];
export type MeterUsageRecord = Schemas["MeterUsageRecord"];
/** One record of `meters.recordUsageBatch` (POST /v1/meters/usage_batches). */
export type MeterUsageBatchRecord = Schemas["MeterUsageBatchParams"]["records"][number];
export type MeterUsageBatchResult = Schemas["MeterUsageBatchResult"];
export type MeterUsageBatchResultStatus = MeterUsageBatchResult["status"];
export type MeterUsageBatch = Schemas["MeterUsageBatch"];
export type MeterUsageSummaryParams = Query<"getMeterUsageSummary">;
export type MeterUsageSummary = Schemas["MeterUsageSummary"];
export type MeterUsageSummaryBucket = MeterUsageSummary["data"][number];
export type MeterReservationParams = Schemas["MeterReservationParams"];
export type MeterReservation = Schemas["MeterReservation"];
