// lib/acp/schemas.ts against ACP's own examples for API-Version 2026-01-16 (tests/fixtures/acp/README.md):
// every example request, response, error and webhook event is accepted by the matching schema, and the
// closed enums refuse what the RFC does not list.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as acp from "../../lib/acp/schemas";

const fixture = (name: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../fixtures/acp", name), "utf8")) as Record<string, unknown>;
const checkout = fixture("examples.agentic_checkout.2026-01-16.json");
const delegate = fixture("examples.delegate_payment.2026-01-16.json");

const CHECKOUT: Record<string, z.ZodType> = {
  create_checkout_session_request: acp.CheckoutSessionCreateRequest,
  create_checkout_session_request_with_first_touch_attribution: acp.CheckoutSessionCreateRequest,
  create_checkout_session_response: acp.CheckoutSession,
  update_checkout_session_request: acp.CheckoutSessionUpdateRequest,
  update_checkout_session_response: acp.CheckoutSession,
  complete_checkout_session_request: acp.CheckoutSessionCompleteRequest,
  complete_checkout_session_request_with_last_touch_attribution: acp.CheckoutSessionCompleteRequest,
  complete_checkout_session_response: acp.CheckoutSessionWithOrder,
  get_checkout_session_response: acp.CheckoutSession,
  cancel_checkout_session_request: acp.CancelSessionRequest,
  cancel_checkout_session_request_timing_deferred: acp.CancelSessionRequest,
  cancel_checkout_session_response: acp.CheckoutSession,
  webhook_order_create_event: acp.WebhookEvent,
  webhook_order_update_event: acp.WebhookEvent,
  checkout_session_authentication_required: acp.CheckoutSession,
  complete_session_with_authentication_result_request: acp.CheckoutSessionCompleteRequest,
  authentication_result_example: acp.AuthenticationResult,
  error_400_requires_3ds: acp.FlatError,
};
const DELEGATE: Record<string, z.ZodType> = {
  delegate_payment_request: acp.DelegatePaymentRequest,
  delegate_payment_success_response: acp.DelegatePaymentResponse,
  delegate_payment_error_invalid_card: acp.DelegatePaymentError,
  delegate_payment_error_idempotency_conflict: acp.DelegatePaymentError,
  delegate_payment_error_rate_limit: acp.DelegatePaymentError,
};

/** An example may be the object itself or wrapped as { value } / { body }. */
function bodyOf(example: unknown): unknown {
  if (example && typeof example === "object" && "value" in example && Object.keys(example).length <= 3)
    return (example as { value: unknown }).value;
  return example;
}

describe("ACP 2026-01-16 examples", () => {
  for (const [name, schema] of [...Object.entries(CHECKOUT), ...Object.entries(DELEGATE)]) {
    it(`${name} is accepted`, () => {
      const example = name in checkout ? checkout[name] : delegate[name];
      expect(example, `${name} missing from the fixture`).toBeDefined();
      const parsed = schema.safeParse(bodyOf(example));
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    });
  }
  it("every example of the fixtures is covered", () => {
    expect(Object.keys(checkout).sort()).toEqual(Object.keys(CHECKOUT).sort());
    expect(Object.keys(delegate).sort()).toEqual(Object.keys(DELEGATE).sort());
  });
});

describe("closed enums refuse what ACP does not list", () => {
  const session = bodyOf(checkout.get_checkout_session_response) as Record<string, unknown>;
  it("statuses", () => {
    expect(acp.CHECKOUT_SESSION_STATUSES).toEqual([
      "not_ready_for_payment",
      "ready_for_payment",
      "completed",
      "canceled",
      "in_progress",
      "authentication_required",
    ]);
    expect(acp.CheckoutSession.safeParse({ ...session, status: "expired" }).success).toBe(false);
    expect(acp.CheckoutSession.safeParse({ ...session, status: "open" }).success).toBe(false);
  });
  it("extra fields where the schema closes the object", () => {
    expect(acp.CheckoutSession.safeParse({ ...session, object: "checkout_session" }).success).toBe(false);
    expect(acp.Total.safeParse({ type: "shipping", display_text: "x", amount: 1 }).success).toBe(false);
    expect(acp.MessageError.safeParse({ type: "error", code: "sold_out", content_type: "plain", content: "x" }).success).toBe(false);
    expect(acp.FlatError.safeParse({ type: "api_error", code: "x", message: "y" }).success).toBe(false);
    expect(acp.DelegatePaymentError.safeParse({ type: "invalid_request", code: "invalid", message: "y" }).success).toBe(false);
  });
});
