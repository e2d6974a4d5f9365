// What a payment protocol gives the one door of a hosted paid resource (sell-paid-resource.ts): how its credential
// is read and checked, how it is spent and settled, what the paid answer carries and how a refusal reads. The door
// owns everything else, once for every protocol. x402 (lib/x402/serve-resource.ts) and MPP
// (lib/mpp/serve-resource.ts) are the two.
// A lost answer's retry: the door finds the answer it gave to the same credential (its `fingerprint`); when it must
// make that answer again (its maker died), `settle` answers the earlier settlement of the credential (`replayed`).
import type { Db } from "../db";
import type { PaidResource } from "../generated/prisma/client";
import type { HttpResult } from "../http/errors";
import type { SaleReads, SignedReceipt } from "../receipts/receipt-for";

/** One request for a resource, as the door and its protocol see it. */
export interface Sale {
  req: Request;
  resource: PaidResource;
  /** The answer's headers so far (request id, rate limit): every answer starts from them. */
  headers: Headers;
}

/** A step's result: its value, or the protocol's refusal (answered 402 or as the refusal says; nothing charged). */
export type Step<T, R> = { ok: true; value: T } | { ok: false; refusal: R };

/** A committed payment: the captured PaymentIntent and the payer it names (forwarded to the merchant). */
export interface Settled {
  paymentIntentId: string;
  payer: string | null;
  /**
   * The money went straight to the merchant's own wallet (live x402 on chain): a failed forward cannot be refunded;
   * it is answered 502 with the transaction, and the same payment sent again is forwarded again.
   */
  onChain?: { transaction: string };
  /** The credential was settled before (the very same one sent again): its first settlement, nothing charged now. */
  replayed?: boolean;
}

/**
 * Runs in the transaction that spends the credential, with its PaymentIntent: the door's record of the sale. `read`: what
 * the sale's own statements returned already (the captured PaymentIntent, the active signing key's row), not read again.
 */
export type RecordSale = (tx: Db, paymentIntentId: string, read?: SaleReads) => Promise<void>;

export interface SaleProtocol<Credential, Payment, Refusal> {
  /** The path's protocol ("x402" -> /x402/r/:id); the refund of a failed forward names it. */
  name: "x402" | "mpp";
  /** Headers of every answer (what a browser may read of them, caching). */
  headers: Record<string, string>;
  /** The protocol's shape of what the door throws: 404, 429, 400 body, 502 forward_failed, 503 (default: the error contract). */
  errorResult?: (err: unknown, requestId: string, headers: Headers) => HttpResult;
  /** A resource the protocol cannot sell, thrown before anything is read (x402: priced in USD, a payable network in live mode). */
  assertSells?(sale: Sale): Promise<void>;
  /** The refusal of a request without a payment (a HEAD, whatever it carries): the terms to pay. */
  unpaid(sale: Sale): Refusal;
  /**
   * The request's credential, or what is wrong with it; null when it carries none (answered `unpaid`). From the request
   * alone, neither the database nor the resource: the door parses it first, so that the resource and the credential's
   * earlier sale are read in one statement.
   */
  parse(req: Request): Step<Credential, Refusal> | null;
  /** The credential as the exact text of the payment (signature included): the door finds an earlier answer by its hash. */
  fingerprint(credential: Credential): string;
  /**
   * The credential against the resource's terms (amount, recipient, expiry, signature); nothing is written.
   * `paidBefore`: the credential paid already (its answer is made again): its time limits are not checked.
   */
  verify(sale: Sale, credential: Credential, paidBefore: boolean): Promise<Step<Payment, Refusal>>;
  /**
   * The credential spent once (lockSingleUse, lib/single-use.ts, and a statement that succeeds once) and the
   * captured PaymentIntent (source, order, ledger, events) through the domain, in the protocol's own transactions:
   * one (MPP, x402 in test mode), or claim / chain / capture (live x402, lib/x402/settle-on-chain.ts). `record` runs in
   * the transaction that spends it. The same credential settled before answers that settlement (`replayed`).
   */
  settle(sale: Sale, payment: Payment, record: RecordSale): Promise<Step<Settled, Refusal>>;
  /** The settlement threw and rolled back (nothing charged): the refusal to answer, or the error rethrown. */
  settleFailed(sale: Sale, payment: Payment, err: unknown): Refusal;
  /**
   * The receipt headers of the paid answer (signed receipts included: lib/receipts). `signed`: the service's receipt,
   * signed in the sale's own transaction (receipt-for.ts signReceiptInSale); null: made now, as receiptFor makes it.
   */
  receipt(sale: Sale, payment: Payment, settled: Settled, signed: SignedReceipt | null): Promise<Record<string, string>>;
  /** A refusal as the protocol answers it (a 402 carries the terms to pay again). */
  refuse(sale: Sale, refusal: Refusal): Response;
  /** 405: the resource takes other methods (`allowed`); nothing was read. */
  methodNotAllowed(sale: Sale, allowed: string[]): Response;
  /**
   * A usage-priced (`upto`) resource's sale, from a parsed credential not answered before (sell-metered.ts builds it);
   * a protocol without one does not sell such resources (409).
   */
  metered?: (sale: Sale, credential: Credential, ctx: { credentialHash: string; paidBefore: boolean }) => Promise<Response>;
}
