// Webhook signatures: Stripe's t=,v1= scheme, verified by our verifyWebhook and by the official stripe package.
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { ServiceError, generateTestHeader, signWebhookPayload, verifyWebhook } from "agent-payments-sdk";

const secret = "whsec_test_current";
const oldSecret = "whsec_test_previous";
const event = {
  id: "evt_123",
  type: "order.paid",
  data: { object: { id: "ord_1", status: "paid" } },
  created: 1_700_000_000,
  livemode: false,
};
const body = JSON.stringify(event);
const now = 1_700_000_100;

function expectVerificationFailure(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(ServiceError.is(err)).toBe(true);
    expect((err as ServiceError).code).toBe("signature_verification_failed");
    expect((err as ServiceError).status).toBe(400);
    return;
  }
  throw new Error("expected a signature_verification_failed error");
}

describe("webhook signatures", () => {
  it("signWebhookPayload is exactly t=<ts>,v1=HMAC-SHA256(secret, `${t}.${body}`) in hex", () => {
    const hex = createHmac("sha256", secret).update(`${now}.${body}`).digest("hex");
    expect(signWebhookPayload(secret, body, now)).toBe(`t=${now},v1=${hex}`);
    const oldHex = createHmac("sha256", oldSecret).update(`${now}.${body}`).digest("hex");
    expect(signWebhookPayload([secret, oldSecret], body, now)).toBe(`t=${now},v1=${hex},v1=${oldHex}`);
  });

  it("a valid delivery verifies and returns the parsed event (string or Buffer body)", () => {
    const header = signWebhookPayload(secret, body, now);
    expect(verifyWebhook(body, header, secret, { now })).toEqual(event);
    expect(verifyWebhook(Buffer.from(body), header, [secret], { now: new Date(now * 1000) })).toEqual(event);
  });

  it("a tampered body fails", () => {
    const header = signWebhookPayload(secret, body, now);
    expectVerificationFailure(() => verifyWebhook(body.replace('"paid"', '"refunded"'), header, secret, { now }));
  });

  it("a wrong secret fails", () => {
    expectVerificationFailure(() => verifyWebhook(body, signWebhookPayload("whsec_other", body, now), secret, { now }));
  });

  it("a timestamp outside the tolerance fails (past and future); inside it passes", () => {
    const header = signWebhookPayload(secret, body, now);
    expectVerificationFailure(() => verifyWebhook(body, header, secret, { now: now + 301 }));
    expectVerificationFailure(() => verifyWebhook(body, header, secret, { now: now - 301 }));
    expect(verifyWebhook(body, header, secret, { now: now + 300 }).id).toBe("evt_123");
    expectVerificationFailure(() => verifyWebhook(body, header, secret, { now: now + 60, toleranceSeconds: 30 }));
    // A re-signed header with the old timestamp cannot be replayed later with a changed t.
    expectVerificationFailure(() => verifyWebhook(body, header.replace(`t=${now}`, `t=${now + 200}`), secret, { now: now + 200 }));
  });

  it("rotation: two v1 entries, and either secret on the receiver's side, verify", () => {
    const header = signWebhookPayload([secret, oldSecret], body, now);
    expect(verifyWebhook(body, header, secret, { now }).id).toBe("evt_123");
    expect(verifyWebhook(body, header, oldSecret, { now }).id).toBe("evt_123");
    // The receiver holding both secrets accepts a delivery signed with only one of them.
    expect(verifyWebhook(body, signWebhookPayload(oldSecret, body, now), [secret, oldSecret], { now }).id).toBe("evt_123");
    expectVerificationFailure(() => verifyWebhook(body, header, "whsec_neither", { now }));
  });

  it("missing or malformed headers fail", () => {
    for (const header of [
      undefined,
      null,
      "",
      "garbage",
      `t=${now}`,
      "v1=abc",
      `t=abc,v1=${"0".repeat(64)}`,
      `t=${now},v0=${"0".repeat(64)}`,
    ]) {
      expectVerificationFailure(() => verifyWebhook(body, header, secret, { now }));
    }
  });

  it("a parsed object instead of the raw body is refused", () => {
    const header = signWebhookPayload(secret, body, now);
    expectVerificationFailure(() => verifyWebhook(event as unknown as string, header, secret, { now }));
  });

  it("generateTestHeader builds a header that verifies now", () => {
    const header = generateTestHeader({ payload: body, secret });
    expect(verifyWebhook(body, header, secret).id).toBe("evt_123");
  });

  it("the official stripe package's webhooks.constructEvent accepts our signatures", () => {
    const stripe = new Stripe("sk_test_x");
    const fresh = Math.floor(Date.now() / 1000);
    const header = signWebhookPayload(secret, body, fresh);
    const verified = stripe.webhooks.constructEvent(body, header, secret);
    expect(verified.id).toBe("evt_123");
    // During a rotation (two v1 entries) Stripe accepts either secret too.
    const rotated = signWebhookPayload([secret, oldSecret], body, fresh);
    expect(stripe.webhooks.constructEvent(body, rotated, oldSecret).id).toBe("evt_123");
    // And our verifier accepts Stripe's own test header.
    const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    expect(verifyWebhook(body, stripeHeader, secret).id).toBe("evt_123");
    expect(() => stripe.webhooks.constructEvent(body, header, "whsec_wrong")).toThrow();
  });
});
