// The sale of a usage-priced hosted resource (x402 `upto`; docs/x402.md, "Usage-priced resources"), from the door
// (sell-paid-resource.ts) once the credential is parsed and was not answered before. Its price is known only after
// the merchant's server answered, so the steps differ from a fixed price's:
//   1. the credential verified against the maximum (nothing written);
//   2. held: spent once (the protocol's claim, a primary key) with a PaymentIntent id reserved, nothing charged;
//   3. the request forwarded (signed with that id); its answer reports X-Usage-Units;
//   4. units x unitAmount captured (one PaymentIntent, order and ledger posting for that amount, never the unused
//      rest) in one transaction with the answer's lease, then the answer kept and served with the receipt.
// Nothing is charged when the forward fails, when the usage is missing or malformed, or when it is above the maximum
// (the settle is refused, the content withheld: 502 `usage_exceeds_maximum`); the hold is released then (the
// authorization moved nothing). Zero units: the content, nothing charged, the authorization spent.
import { env } from "../env";
import { AnswerPendingError, UpstreamError } from "../errors";
import { readBodyText } from "../http/read-body";
import { forwardPaidRequest } from "../paid-resources/forward-request";
import { leaseAnswer, type PaidAnswer } from "../paid-resources/paid-answers";
import type { RecordSale, Sale, Settled, Step } from "./sale-protocol";
import { answerAgain, answerWith, keepWithRetries } from "./sell-paid-resource";

/** The response header in which the merchant's server reports the units a request used. */
export const USAGE_UNITS_HEADER = "X-Usage-Units";

/** A credential held for one use: the PaymentIntent id its capture will have (the forward names it) and who pays. */
export interface Hold {
  paymentIntentId: string;
  payer: string | null;
}

export interface MeteredProtocol<Credential, Payment, Refusal> {
  /** The credential against the resource's maximum; nothing written. */
  verify(sale: Sale, credential: Credential, paidBefore: boolean): Promise<Step<Payment, Refusal>>;
  /** Spends the credential once (a statement that succeeds once), charging nothing; a duplicate in flight: AnswerPendingError. */
  hold(sale: Sale, payment: Payment, credentialHash: string): Promise<Step<Hold, Refusal>>;
  /** Gives a hold back (nothing was charged): the credential may be used again. */
  release(sale: Sale, payment: Payment): Promise<void>;
  /**
   * Captures `amount` (minor units, at most the maximum) as the hold's PaymentIntent, in one transaction with `record`;
   * 0: nothing captured (null), the credential stays spent.
   */
  capture(sale: Sale, payment: Payment, hold: Hold, amount: number, record: RecordSale): Promise<Settled | null>;
  /** The paid answer's receipt headers (amount: what was settled; 0: nothing). */
  receipt(sale: Sale, payment: Payment, settled: Settled | null, amount: number): Promise<Record<string, string>>;
  refuse(sale: Sale, refusal: Refusal): Response;
}

/** The door's `metered` step of a protocol (sale-protocol.ts). */
export function meteredSale<C, P, R>(protocol: MeteredProtocol<C, P, R>) {
  return (sale: Sale, credential: C, ctx: { credentialHash: string; paidBefore: boolean }) => sellMetered(protocol, sale, credential, ctx);
}

/** X-Usage-Units as a whole number of units, or null when absent or malformed. */
export function usageUnits(value: string | null): number | null {
  if (value === null || !/^\s*\d{1,15}\s*$/.test(value)) return null;
  return Number(value.trim());
}

async function sellMetered<C, P, R>(
  protocol: MeteredProtocol<C, P, R>,
  sale: Sale,
  credential: C,
  { credentialHash, paidBefore }: { credentialHash: string; paidBefore: boolean },
): Promise<Response> {
  const { req, resource, headers } = sale;
  const payment = await protocol.verify(sale, credential, paidBefore);
  if (!payment.ok) return protocol.refuse(sale, payment.refusal);
  const body = req.method !== "GET" ? await readBodyText(req, env.BODY_LIMIT_BYTES) : undefined;

  const held = await protocol.hold(sale, payment.value, credentialHash);
  if (!held.ok) return protocol.refuse(sale, held.refusal);
  const hold = held.value;
  const release = () => protocol.release(sale, payment.value).catch(() => undefined);

  const forward = await forwardPaidRequest(req, resource, { paymentIntentId: hold.paymentIntentId, payer: hold.payer, body }).catch(
    async (err: unknown) => {
      await release();
      throw err;
    },
  );
  if (!forward.ok) {
    await release();
    const failure = `${forward.failure}${forward.status ? ` ${forward.status}` : ""}`;
    throw upstream(`The merchant's server for paid resource ${resource.id} failed (${failure}); nothing was charged.`, "forward_failed");
  }
  const units = usageUnits(forward.usageUnits);
  if (units === null) {
    await release();
    throw upstream(
      `The merchant's server for paid resource ${resource.id} did not report the units used (${USAGE_UNITS_HEADER}: a whole number); nothing was charged.`,
      "usage_not_reported",
    );
  }
  const amount = units * resource.unitAmount!;
  if (amount > resource.maxAmount!) {
    await release();
    throw upstream(
      `The merchant's server for paid resource ${resource.id} reported ${units} units (${amount}), above the authorized maximum ${resource.maxAmount}: the settlement is refused and nothing was charged.`,
      "usage_exceeds_maximum",
      { units, amount, maxAmount: resource.maxAmount },
    );
  }
  const content = { status: forward.status, contentType: forward.contentType, body: forward.body };
  let token: string | null = null;
  const record = async (tx: Parameters<RecordSale>[0], paymentIntentId: string) => {
    token = await leaseAnswer(tx, { paymentIntentId, paidResourceId: resource.id, credentialHash });
  };
  const settled = await protocol.capture(sale, payment.value, hold, amount, record).catch(async (err: unknown) => {
    await release(); // rolled back: nothing charged
    throw err;
  });
  if (settled === null) {
    // Zero units: the content with a receipt of 0, not kept (no PaymentIntent); the credential stays spent.
    const receipt = await protocol.receipt(sale, payment.value, null, 0);
    return answerWith(headers, { kind: "content", headers: receipt, ...content }, "");
  }
  const receipt = await protocol.receipt(sale, payment.value, settled, amount);
  const answer: PaidAnswer = { kind: "content", headers: receipt, ...content };
  if (token === null) {
    const again = await answerAgain(sale, settled.paymentIntentId);
    if (again) return again;
    throw new AnswerPendingError(settled.paymentIntentId);
  }
  await keepWithRetries(settled.paymentIntentId, token, answer, resource.replayable);
  return answerWith(headers, answer, settled.paymentIntentId);
}

function upstream(message: string, reason: string, facts: Record<string, unknown> = {}): UpstreamError {
  const error = new UpstreamError(message);
  Object.assign(error.details, { reason, ...facts });
  return error;
}
