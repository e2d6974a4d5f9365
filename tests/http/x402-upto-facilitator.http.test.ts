// Issue 34, item 1: x402 `upto` through the facilitator, for a merchant's own server (test mode). The stock client
// (@x402/core's x402Client with @x402/evm/upto/client's UptoEvmScheme) authorizes 100 cents; the official
// HTTPFacilitatorClient calls our /x402/verify (the maximum) and /x402/settle (paymentRequirements.amount: what was
// used, 37): the PaymentIntent and the ledger say 37, the authorization cannot be settled again (the same payload:
// its first result; another: permit2_invalid_nonce), and a settle above the maximum is refused with the library's
// reason, nothing captured and the authorization not spent.
import { x402Client } from "@x402/core/client";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const CENT = 10_000; // atomic USDC units per cent
const MAX = 100 * CENT; // $1: the stock client's default cap per payment

let m: TestMerchant;
let facilitator: HTTPFacilitatorClient;
let upto: { network: string; extra: Record<string, string> };

beforeAll(async () => {
  m = await createTestMerchant("upto facilitator merchant");
  const headers = { Authorization: `Bearer ${m.testKey}` };
  facilitator = new HTTPFacilitatorClient({
    url: `${baseUrl()}/x402`,
    createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
  });
  const supported = await facilitator.getSupported();
  upto = supported.kinds.find((k) => k.scheme === "upto") as never;
});

function requirements(amount = MAX): PaymentRequirements {
  const { payTo, asset, name, version, facilitatorAddress } = upto.extra;
  return {
    scheme: "upto",
    network: upto.network as `${string}:${string}`,
    amount: String(amount),
    asset,
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name, version, facilitatorAddress },
  };
}

/** The stock client's upto payment of the maximum, signed by a new payer. */
async function stockPayment(url = "https://merchant.test/generate"): Promise<PaymentPayload> {
  const client = new x402Client().register("eip155:84532", new UptoEvmScheme(privateKeyToAccount(generatePrivateKey())));
  return client.createPaymentPayload({ x402Version: 2, resource: { url }, accepts: [requirements()] });
}

const settleFor = (payload: PaymentPayload, cents: number) =>
  facilitator.settle(payload, { ...payload.accepted, amount: String(cents * CENT) } as PaymentRequirements);

async function ledgerOf(paymentIntentId: string) {
  const entries = await getDb().ledgerEntry.findMany({ where: { paymentIntentId } });
  return { count: entries.length, credited: entries.filter((e) => e.amount > 0).reduce((sum, e) => sum + e.amount, 0) };
}

const paymentsOf = (payer: string) => getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, payer } });

describe("x402 upto through the facilitator (test mode)", () => {
  it("GET /x402/supported lists upto (v2) with the facilitator address the payer binds to", async () => {
    expect(upto).toMatchObject({
      x402Version: 2,
      scheme: "upto",
      network: "eip155:84532",
      extra: { facilitatorAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), asset: expect.any(String), payTo: expect.any(String) },
    });
  });

  it("verify of the maximum, settle of 37: the PaymentIntent and the ledger say 37; settled again: its first result, nothing moved", async () => {
    const payload = await stockPayment();
    const payer = (payload.payload as { permit2Authorization: { from: string } }).permit2Authorization.from;
    expect(await facilitator.verify(payload, requirements())).toMatchObject({ isValid: true, payer });

    const settled = await settleFor(payload, 37);
    expect(settled).toMatchObject({ success: true, network: "eip155:84532", payer, amount: String(37 * CENT) });
    const paymentIntentId = settled.transaction;
    expect(settled.extensions).toMatchObject({ paymentIntentId });
    const pi = await call("GET", `/v1/payment_intents/${paymentIntentId}`, { key: m.testKey });
    expect(pi.body).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), amount: 37, source: "x402" });
    expect(await ledgerOf(paymentIntentId)).toMatchObject({ credited: 37 });

    // The same settle again (a lost answer): the first result, nothing moved; verify says it was settled.
    const ledger = await ledgerOf(paymentIntentId);
    const again = await settleFor(payload, 37);
    expect(again).toMatchObject({ success: true, transaction: paymentIntentId, amount: String(37 * CENT) });
    expect(again.extensions).toMatchObject({ paymentIntentId, replayed: true });
    expect(await facilitator.verify(payload, requirements())).toMatchObject({
      isValid: true,
      extensions: { paymentIntentId, replayed: true },
    });
    expect(await ledgerOf(paymentIntentId)).toEqual(ledger);
    expect(await paymentsOf(payer)).toHaveLength(1);

    // The authorization in another payload (another resource named): used.
    const other = { ...payload, resource: { url: "https://merchant.test/elsewhere" } } as PaymentPayload;
    expect(await settleFor(other, 10)).toMatchObject({ success: false, errorReason: "permit2_invalid_nonce" });
    expect(await facilitator.verify(other, requirements())).toMatchObject({ isValid: false, invalidReason: "permit2_invalid_nonce" });
    expect(await paymentsOf(payer)).toHaveLength(1);
  });

  it("a settle above the maximum is refused (the library's reason), nothing captured and the authorization not spent", async () => {
    const payload = await stockPayment();
    const payer = (payload.payload as { permit2Authorization: { from: string } }).permit2Authorization.from;
    expect(await settleFor(payload, 101)).toMatchObject({
      success: false,
      errorReason: "invalid_upto_evm_payload_settlement_exceeds_amount",
      transaction: "",
    });
    expect(await paymentsOf(payer)).toHaveLength(0);
    const within = await settleFor(payload, 100);
    expect(within).toMatchObject({ success: true, amount: String(MAX) });
    expect((await paymentsOf(payer)).map((p) => p.amount)).toEqual([100]);
  });

  it("zero used: success with amount 0 and no PaymentIntent, the authorization spent", async () => {
    const payload = await stockPayment();
    const payer = (payload.payload as { permit2Authorization: { from: string } }).permit2Authorization.from;
    expect(await settleFor(payload, 0)).toMatchObject({ success: true, transaction: "", amount: "0" });
    expect(await paymentsOf(payer)).toHaveLength(0);
    expect(await settleFor(payload, 5)).toMatchObject({ success: false, errorReason: "permit2_invalid_nonce" });
  });

  it("refused: requirements not this merchant's, an amount that is not whole cents, a tampered signature, x402 v1", async () => {
    const payload = await stockPayment();
    const elsewhere = { ...requirements(), payTo: privateKeyToAccount(generatePrivateKey()).address };
    expect(await facilitator.verify(payload, elsewhere)).toMatchObject({ isValid: false, invalidReason: "invalid_payment_requirements" });
    expect(await facilitator.settle(payload, { ...payload.accepted, amount: "370001" } as PaymentRequirements)).toMatchObject({
      success: false,
      errorReason: "invalid_payment_requirements",
    });
    const p = payload.payload as { signature: string; permit2Authorization: { permitted: { amount: string } } };
    const bigger = {
      ...p,
      permit2Authorization: { ...p.permit2Authorization, permitted: { ...p.permit2Authorization.permitted, amount: "2000000" } },
    };
    const tampered = { ...payload, accepted: { ...payload.accepted, amount: "2000000" }, payload: bigger } as PaymentPayload;
    expect(await settleFor(tampered, 150)).toMatchObject({ success: false, errorReason: "invalid_permit2_signature" });
    const v1 = await call("POST", "/x402/settle", {
      key: m.testKey,
      body: { x402Version: 1, paymentPayload: { ...payload, x402Version: 1 }, paymentRequirements: requirements() },
    });
    expect(v1.body).toMatchObject({ success: false, errorReason: "invalid_x402_version" });
    // Untouched by all that: the payment still settles.
    expect(await settleFor(payload, 3)).toMatchObject({ success: true, amount: String(3 * CENT) });
  });
});
