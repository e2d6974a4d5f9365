// paywall(options)(handler): makes an MCP tool handler pay-per-call, single-use (docs/sdk.md "Paywall (single-use), for MCP tools", 3.3).
//   unpaid call            -> gate (structuredContent + JSON text in content[0]), isError, handler not run
//   `_servicePayment` proof -> verify -> consume once -> handler(args without _servicePayment, extra)
//                              (one request to the service with its own backend and store: redeem.ts)
//                              -> its result plus `payment: { status: "paid", paymentIntentId }`
//   same proof again       -> already_redeemed, handler not run
//   proof fails verify     -> gate with reasonCode
// The handler's own failure after redemption is not undone (the payment was consumed when it started).
import { structuredErrorResult, type CallToolResult, type StructuredErrorResult } from "./mcp-types";
import { resolvePaywallOptions, type PaywallOptions } from "./paywall-options";
import { gateHint, type AlreadyRedeemed, type PaymentBlock, type PaywallGate } from "./paywall-terms";
import { decideRedemption } from "./redeem";

export const PAYMENT_ARGUMENT = "_servicePayment";

/** `payment?: undefined` lets callers test `result.payment` on any PaywalledResult. */
export type GateToolResult = StructuredErrorResult<PaywallGate> & { payment?: undefined };
export type AlreadyRedeemedToolResult = StructuredErrorResult<AlreadyRedeemed> & { payment?: undefined };

/** The handler's own result with the payment block added. */
export type PaidToolResult<R> = R & { payment: PaymentBlock; isError?: boolean };

/** What a paywalled handler resolves to: the handler's own result (with a payment block) or a paywall answer. */
export type PaywalledResult<R> = PaidToolResult<R> | GateToolResult | AlreadyRedeemedToolResult;

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
      const result = await handler(cleanArgs as A, extra);
      return { ...result, payment: { status: "paid", paymentIntentId: decision.paymentIntentId } };
    };
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
