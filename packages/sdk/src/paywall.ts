// paywall(options)(handler): makes an MCP tool handler pay-per-call, single-use (docs/sdk.md "Paywall (single-use), for MCP tools", 3.3).
//   unpaid call            -> gate (structuredContent + JSON text in content[0]), isError, handler not run; with
//                              options.mpp / options.x402 the same result's `_meta` also carries the MPP challenge and
//                              the x402 PaymentRequired (paywall-mcp-rails.ts; never a JSON-RPC -32042 error)
//   MPP / x402 payment in   -> settled through the service (POST /mpp/verify, /x402/verify + /x402/settle), its
//   the request's `_meta`      PaymentIntent consumed in the store, then as a proof below (receipt in the result's `_meta`);
//                              refused -> the gate again with that rail's reason
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
import { alreadyRedeemed, buildGate, gateHint, type AlreadyRedeemed, type PaymentBlock, type PaywallGate } from "./paywall-terms";
import { mcpRails, paymentRequiredMeta, railPayment, railsHint, type McpPaymentRail, type McpRailOutcome } from "./paywall-mcp-rails";
import { decideRedemption } from "./redeem";

export const PAYMENT_ARGUMENT = "_servicePayment";

/**
 * `payment?: undefined` lets callers test `result.payment` on any PaywalledResult. `_meta`: the standard MCP
 * transports' terms (paywall-mcp-rails.ts), when the paywall speaks any.
 */
export type GateToolResult = StructuredErrorResult<PaywallGate> & { payment?: undefined; _meta?: Record<string, unknown> };
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

/** An x402 payment sent on chain and not confirmed yet (live): the same payment, sent again, gets its outcome. */
export type PendingToolResult = StructuredErrorResult<{ kind: "payment_pending"; [field: string]: unknown }> & { payment?: undefined };

/** What a paywalled handler resolves to: the handler's own result (with a payment block) or a paywall answer. */
export type PaywalledResult<R> = PaidToolResult<R> | GateToolResult | AlreadyRedeemedToolResult | FailedToolResult | PendingToolResult;

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
  const rails = mcpRails("paywall", options, resolved.terms, resolved.consumed);
  return function wrap<A, E, R extends CallToolResult>(handler: (args: A, extra: E) => R | Promise<R>) {
    if (typeof handler !== "function") throw new TypeError("paywall(options)(handler): handler must be a function.");
    // The handler gets its arguments without `_servicePayment`.
    const run = (args: A, extra: E) => {
      if (!isRecord(args)) return handler(args, extra);
      const { [PAYMENT_ARGUMENT]: _proof, ...cleanArgs } = args;
      return handler(cleanArgs as A, extra);
    };
    return async function paywalled(args: A, extra: E): Promise<PaywalledResult<R>> {
      const proof = isRecord(args) ? args[PAYMENT_ARGUMENT] : undefined;
      // `_servicePayment` wins over a standard transport's payment, as the x-service-payment header does over HTTP.
      const standard = proof === undefined ? railPayment(rails, extra) : null;
      if (standard) return payWithRail(standard, () => run(args, extra));
      const decision = await decideRedemption(resolved, proof);
      if (decision.kind === "gate") return withRails(gateToolResult(decision.gate), rails);
      if (decision.kind === "already_redeemed") return alreadyRedeemedToolResult(decision.body);

      let result: R;
      try {
        result = await run(args, extra);
      } catch (err) {
        return failedToolResult(err, await resolved.refunds.refund(decision.paymentIntentId));
      }
      return { ...result, payment: { status: "paid", paymentIntentId: decision.paymentIntentId } };
    };

    /**
     * A payment of a standard transport: settled by its rail through the service, then its PaymentIntent redeemed
     * in the store like a proof (SPEC 3.3): the same payment again (the service answers it as settled before) is
     * already_redeemed, and one whose first call never ran the tool (cut off, a live settlement pending) runs it once.
     */
    async function payWithRail(
      standard: { rail: McpPaymentRail; payment: unknown; requestMeta: Record<string, unknown> },
      call: () => R | Promise<R>,
    ): Promise<PaywalledResult<R>> {
      const { rail } = standard;
      let outcome: McpRailOutcome;
      try {
        outcome = await rail.settle(standard.payment, standard.requestMeta);
      } catch (err) {
        throw new Error(`paywall: the ${rail.name} payment could not be checked; it was not used, retry.`, { cause: err });
      }
      if (outcome.kind === "pending") return pendingToolResult(outcome.details, outcome.message);
      if (outcome.kind === "refused") {
        const gate = gateToolResult(buildGate(resolved.terms, resolved.backend.payEndpoint));
        gate.content.push({
          type: "text",
          text: `The ${rail.name} payment was refused (${outcome.reason})${outcome.message ? `: ${outcome.message}` : "."}`,
        });
        return withRails(gate, rails, { rail, meta: outcome.meta });
      }
      const { paymentIntentId } = outcome;
      let first: boolean;
      try {
        first = await resolved.consumed.consume(paymentIntentId);
      } catch (err) {
        const message = `paywall: the ${rail.name} payment was settled (${paymentIntentId}) but could not be redeemed; send the same payment again.`;
        throw new Error(message, { cause: err });
      }
      if (!first) return alreadyRedeemedToolResult(alreadyRedeemed(paymentIntentId));
      let result: R;
      try {
        result = await call();
      } catch (err) {
        return failedToolResult(err, await rail.refunds.refund(paymentIntentId));
      }
      return { ...result, _meta: { ...result._meta, ...outcome.meta }, payment: { status: "paid", paymentIntentId } };
    }
  };
}

function pendingToolResult(details: Record<string, unknown>, message: string): PendingToolResult {
  return structuredErrorResult({ ...details, kind: "payment_pending" as const }, message);
}

/** The gate with the standard transports' terms in its `_meta` (and a line saying so); unchanged without any. */
async function withRails(
  gate: GateToolResult,
  rails: McpPaymentRail[],
  refused?: { rail: McpPaymentRail; meta: Record<string, unknown> },
): Promise<GateToolResult> {
  const meta = await paymentRequiredMeta(rails, refused);
  if (!meta) return gate;
  const hint = railsHint(rails);
  return { ...gate, content: hint ? [...gate.content, { type: "text", text: hint }] : gate.content, _meta: meta };
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
