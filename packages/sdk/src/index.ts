// The merchant/client SDK of the Agent Payments Service. Named exports only; nothing here imports the
// rest of lib/, Prisma or Next.
export { ServiceError, parseRetryAfter } from "./errors";
export type { ServiceErrorCode, ServiceErrorInit, TransportErrorCode } from "./errors";

export { ServiceClient } from "./client";
export type { ServiceClientOptions } from "./client";
export { backoffDelayMs, generateIdempotencyKey, isRetryable } from "./request-sender";
export type { HttpMethod, RequestOptions } from "./request-sender";
export type { FetchLike } from "./transport";
export type * from "./types";
/** The whole OpenAPI document as types (paths, operations, component schemas), for what the names above leave out. */
export type { components, operations, paths } from "./generated/openapi";

export {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  computeSignature,
  generateTestHeader,
  parseSignatureHeader,
  signWebhookPayload,
  verifySignedPayload,
  verifyWebhook,
} from "./webhooks";
export type { RawBody, VerifyWebhookOptions, WebhookEvent } from "./webhooks";
export { PAYMENT_INTENT_HEADER, forwardedRequestPayload, signForwardedRequest, verifyForwardedRequest } from "./forwarded-requests";
export type { ForwardedRequestParts, VerifiedForwardedRequest } from "./forwarded-requests";

export { SERVICE_PAYMENT_JSON_SCHEMA } from "./mcp-types";
export type { CallToolResult, ContentBlock, ServicePaymentProof, StructuredErrorResult, TextContent } from "./mcp-types";
export { PAYMENT_ARGUMENT, paywall } from "./paywall";
export type {
  AlreadyRedeemedToolResult,
  FailedToolResult,
  GateToolResult,
  PaidToolResult,
  PaywalledResult,
  PendingToolResult,
} from "./paywall";
// The standard MCP payment transports of paywall(): x402 (options.x402) and MPP (options.mpp, mppOverMcp() from "agent-payments-sdk/mcp-mpp").
export {
  MPP_CREDENTIAL_META,
  MPP_PAYMENT_REQUIRED_META,
  MPP_RECEIPT_META,
  UptoOverMcpError,
  X402_PAYMENT_META,
  X402_PAYMENT_REQUIRED_META,
  X402_PAYMENT_RESPONSE_META,
} from "./paywall-mcp-rails";
export type { McpPaymentRail, McpRailFactory, McpRailOutcome } from "./paywall-mcp-rails";
export type { X402Settlement } from "./paywall-x402";
export type { FailedCallPayment, RefundedPayment, RefundFailedPayment } from "./paywall-refund";
export {
  PAYMENT_HEADER,
  PAYMENT_RESPONSE_HEADER,
  paywallHttp,
  X402_PAYMENT_REQUIRED_HEADER,
  X402_PAYMENT_RESPONSE_HEADER,
} from "./paywall-http";
export type { PaywallX402Options, UptoTerms } from "./paywall-x402";
export { USAGE_UNITS_HEADER } from "./paywall-upto";
export type { HttpHandler } from "./paywall-http";
export type { PaywallOptions } from "./paywall-options";
export { REASON_CODES } from "./paywall-terms";
export type { AlreadyRedeemed, PaymentBlock, PaywallGate, PaywallTerms } from "./paywall-terms";
export { serviceBackend } from "./paywall-backend";
export type { PaywallBackend, ServiceBackendOptions, VerifyOutcome } from "./paywall-backend";

export { inMemoryConsumedStore } from "./consumed-stores/in-memory";
export type { InMemoryConsumedStore } from "./consumed-stores/in-memory";
export { postgresConsumedStore } from "./consumed-stores/postgres";
export type { PgQueryable, PostgresConsumedStore, PostgresConsumedStoreOptions } from "./consumed-stores/postgres";
export { redisConsumedStore } from "./consumed-stores/redis";
export type { RedisConsumedStoreOptions, RedisLike } from "./consumed-stores/redis";
export { serviceConsumedStore } from "./consumed-stores/service";
export type { ServiceConsumedStore, ServiceConsumedStoreOptions } from "./consumed-stores/service";
export type { ConsumedStore } from "./consumed-stores/types";

export { meteredPaywall } from "./metered-paywall";
export type {
  AlreadyUsedResult,
  AlreadyUsedToolResult,
  MeteredGate,
  MeteredPaywallOptions,
  MeteredResult,
  MeteringBlock,
  PastDueGate,
  PastDueToolResult,
  TopUpGate,
  TopUpToolResult,
} from "./metered-paywall";
export type { AlreadyUsedRefusal, InsufficientBudgetRefusal, MeterRefusal, PastDueRefusal } from "./meter-refusals";
export { serviceMeteringBackend } from "./metering-backend";
export type {
  MeteringBackend,
  ReservationParams,
  ReserveOutcome,
  ServiceMeteringBackendOptions,
  UsageBuffered,
  UsageParams,
} from "./metering-backend";
export { usageBuffer, UsageBufferFullError } from "./usage-buffer";
export type { RefusedUsage, SendBatch, UsageBuffer, UsageBufferOptions } from "./usage-buffer";
// The MPP payment method needs mppx (an optional peer dependency): import it from "agent-payments-sdk/mpp" (mpp.ts).
export { agentKeyId, signAgentKeyRegistration, signAgentObject, signAgentRequest } from "./agent-signature";
export type { AgentKeyRegistrationOptions, AgentPrivateJwk, AgentSignature, AgentSignOptions } from "./agent-signature";
export { verifyAgentRequest } from "./agent-verify";
export type {
  AgentRequestVerification,
  AgentVerificationReason,
  NodeRequestLike,
  VerifiedAgentRequest,
  VerifyAgentRequestOptions,
} from "./agent-verify";
export { clearAgentDirectoryCache } from "./agent-directories";
export type { AgentSignatureAlgorithm } from "./agent-message-signature";
export { clearReceiptKeyCache, verifyReceipt } from "./receipts";
export type { ReceiptPayer, ServiceReceipt, VerifyReceiptOptions } from "./receipts";
