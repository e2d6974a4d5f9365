// The ACP edge tests' helpers (3-D Secure, request signing, discovery, order webhooks): ajv validators over ACP's
// own published schemas (tests/fixtures/acp/, JSON Schema 2020-12), a catalog product, and a delegated token.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { acpCall } from "./acp";
import { call } from "./http";

const FIXTURES = path.join(import.meta.dirname, "../fixtures/acp");
const validators = new Map<string, ValidateFunction>();

/** A validator of `$defs/<definition>` in `schema.<file>.<version>.json` (e.g. agentic_checkout_webhook, WebhookEvent). */
export function acpSchema(file: string, version: string, definition: string): ValidateFunction {
  const key = `${file}.${version}#${definition}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = JSON.parse(readFileSync(path.join(FIXTURES, `schema.${file}.${version}.json`), "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile({ ...schema, $ref: `#/$defs/${definition}` });
    validators.set(key, validate);
  }
  return validate;
}

/** Asserts that `value` is valid against the published schema, showing ajv's errors when not. */
export function expectValid(file: string, version: string, definition: string, value: unknown): void {
  const validate = acpSchema(file, version, definition);
  expect(validate(value), `${definition} @ ${version}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value)}`).toBe(true);
}

export async function createProduct(key: string, unitAmount: number, name = "E-book"): Promise<string> {
  const res = await call("POST", "/v1/products", { key, body: { name, unitAmount, currency: "usd" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** A delegate_payment (2026-01-16) body: a test card for one session, up to maxAmount. */
export function delegateBody(merchantId: string, sessionId: string, number: string, maxAmount: number) {
  return {
    payment_method: { type: "card", card_number_type: "fpan", number, display_card_funding_type: "credit", metadata: {} },
    allowance: {
      reason: "one_time",
      max_amount: maxAmount,
      currency: "usd",
      checkout_session_id: sessionId,
      merchant_id: merchantId,
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    },
    risk_signals: [{ type: "card_testing", score: 1, action: "authorized" }],
    metadata: {},
  };
}

/** delegate_payment of a test card for one session: the vt_/spt_ token id. */
export async function delegateCard(key: string, merchantId: string, sessionId: string, number: string, maxAmount: number): Promise<string> {
  const res = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
    key,
    body: delegateBody(merchantId, sessionId, number, maxAmount),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}
