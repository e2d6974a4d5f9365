// paywall(options)(handler): makes an MCP tool handler pay-per-call, single-use (docs/sdk.md "Paywall (single-use), for MCP tools", 3.3).
//   unpaid call            -> gate (structuredContent + JSON text in content[0]), isError, handler not run
//   `_servicePayment` proof -> verify -> consume once -> handler(args without _servicePayment, extra)
//                              (one request to the service with its own backend and store: redeem.ts)
//                              -> its result plus `payment: { status: "paid", paymentIntentId }`
//   same proof again       -> already_redeemed, handler not run
//   proof fails verify     -> gate with reasonCode
//   the handler throws     -> the redemption stays consumed (the same proof is already_redeemed), the payment is
//                              refunded (paywall-refund.ts): isError with the error's message (as McpServer words a
//                              throw) and `payment: { status: "refunded", paymentIntentId, refundId }` (or "refund_failed")
import { structuredErrorResult, type CallToolResult, type StructuredErrorResult, type TextContent } from "./mcp-types";
import { resolvePaywallOptions, type PaywallOptions } from "./paywall-options";
import { refundHint, type FailedCallPayment } from "./paywall-refund";
import { gateHint, type AlreadyRedeemed, type PaymentBlock, type PaywallGate } from "./paywall-terms";
import { decideRedemption } from "./redeem";

export const PAYMENT_ARGUMENT = "_servicePayment";

/** `payment?: undefined` lets callers test `result.payment` on any PaywalledResult. */
export type GateToolResult = StructuredErrorResult<PaywallGate> & { payment?: undefined };
export type AlreadyRedeemedToolResult = StructuredErrorResult<AlreadyRedeemed> & { payment?: undefined };

/** The handler's own result with the payment block added. */
export type PaidToolResult<R> = R & { payment: PaymentBlock; isError?: boolean };

/** The handler threw after its payment was consumed: its message, and what became of the payment (refunded). */
export interface FailedToolResult {
  [field: string]: unknown;
  content: TextContent[];
  isError: true;
  payment: FailedCallPayment;
  structuredContent?: undefined;
}

/** What a paywalled handler resolves to: the handler's own result (with a payment block) or a paywall answer. */
export type PaywalledResult<R> = PaidToolResult<R> | GateToolResult | AlreadyRedeemedToolResult | FailedToolResult;

export function gateToolResult(gate: PaywallGate): GateToolResult {
  return structuredErrorResult(gate, gateHint(gate));
}

export function alreadyRedeemedToolResult(body: AlreadyRedeemed): AlreadyRedeemedToolResult {
  return structuredErrorResult(body, body.message);
}

/**
 * Wraps a tool handler `(args, extra) => result`. The wrapped handler takes the same arguments. When the
 * tool's input is validated (McpServer inputSchema), declare `_servicePayment` in it (see
 * SERVICE_PAYMENT_JSON_SCHEMA) so the proof reaches the wrapper.
 */
export function paywall(options: PaywallOptions) {
  const resolved = resolvePaywallOptions("paywall", options);
  return function wrap<A, E, R extends CallToolResult>(handler: (args: A, extra: E) => R | Promise<R>) {
    if (typeof handler !== "function") throw new TypeError("paywall(options)(handler): handler must be a function.");
    return async function paywalled(args: A, extra: E): Promise<PaywalledResult<R>> {
      const proof = isRecord(args) ? args[PAYMENT_ARGUMENT] : undefined;
      const decision = await decideRedemption(resolved, proof);
      if (decision.kind === "gate") return gateToolResult(decision.gate);
      if (decision.kind === "already_redeemed") return alreadyRedeemedToolResult(decision.body);

      const { [PAYMENT_ARGUMENT]: _proof, ...cleanArgs } = args as Record<string, unknown>;
      let result: R;
      try {
        result = await handler(cleanArgs as A, extra);
      } catch (err) {
        return failedToolResult(err, await resolved.refunds.refund(decision.paymentIntentId));
      }
      return { ...result, payment: { status: "paid", paymentIntentId: decision.paymentIntentId } };
    };
  };
}

/** content[0]: the error's message, as McpServer reports a tool that throws; content[1]: what became of the payment. */
function failedToolResult(err: unknown, payment: FailedCallPayment): FailedToolResult {
  const message = err instanceof Error ? err.message : String(err);
  return {
    content: [
      { type: "text", text: message },
      { type: "text", text: refundHint(payment) },
    ],
    isError: true,
    payment,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
