// Settling a verified x402 `exact` payment into the ledger (docs/x402.md), in the caller's ONE transaction:
// the authorization's row (its nonce, single-use: the primary key), then an ordinary checkout of the merchant
// (openCheckout, source x402) captured at once by captureCheckout, so the PaymentIntent, order, ledger posting,
// events and webhooks, and later refunds are the usual ones; nothing here moves money itself.
//
// - Single use: the authorization's single-use lock (lockSingleUse, lib/single-use.ts) is TRIED first: a
//   settlement of the same authorization running elsewhere (any process) makes this one refuse at once, without
//   waiting on a connection; after it committed, the row is there and the insert finds it. The primary key backs both.
// - Crash safety: the rail's charge key is the authorization's key, so a retry after a crash that rolled the
//   settlement back finds the rail's first charge instead of taking a second one.
// - Test mode only: live mode settles on chain (settle-on-chain.ts); settleVerifiedPayment (settle.ts) picks.
import { reopenApproved } from "../checkouts/await-approval";
import { captureCheckout } from "../checkouts/capture-checkout";
import {
  openCheckout,
  openCheckoutRows,
  planCheckoutRows,
  type CheckoutOrigin,
  type PlannedCheckoutRows,
} from "../checkouts/open-checkout";
import type { OpenCheckoutInput } from "../checkouts/schemas";
import { deferWrites, sqlIn, statement, type Db } from "../db";
import type { Rail } from "../rails/rail";
import { Prisma, type ApprovalRequest, type Checkout, type Order, type PaymentIntent } from "../generated/prisma/client";
import type { SaleReads } from "../receipts/receipt-for";
import { ACTIVE_KEY_TEXT, type ActiveKeyRow } from "../receipts/signing-key";
import type { Scope } from "../scope";
import type { SingleUseKind } from "../single-use";
import { gatedInserts, named, returning, takeReturned } from "../sql-model";
import { agentByWalletText, type AgentRow, type ApprovalRoute } from "../spending-policies/enforce";
import { approvalGate, approvalPendingRefusal, recordApprovedPayment } from "./await-approval";
import { claimKeyOf, readClaim } from "./chain-claims";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";
import { identifierConflict, identifierTaken, replayedPayment, type PaymentIdentity } from "./replays";

export interface SaleOf {
  /** The hosted paid resource sold (xr_), if any. */
  paidResourceId?: string;
  /** The line the order shows. */
  name: string;
  /** How the payment came (default x402; the A2A merchant agent's purchases: a2a; MPP's `evm` method: mpp). */
  source?: "x402" | "a2a" | "mpp";
  /** Catalog items sold (priced from the products; their total must be what the authorization moves). */
  items?: { productId: string; quantity: number }[];
  /**
   * Runs in the transaction that spends the authorization, with its PaymentIntent (the A2A task takes it; a hosted
   * resource's answer is leased). Prepared statements only (sqlIn): in test mode that transaction is a plain pg one.
   */
  inClaim?: (tx: Db, paymentIntentId: string, read?: SaleReads) => Promise<void>;
  /** Replays: whether this PaymentIntent paid this very sale (the A2A task's own); the resource and source are always compared. */
  paidBy?: (paymentIntentId: string) => Promise<boolean>;
  /**
   * Test mode: a charge above the payer's approval threshold waits for a person (await-approval.ts) instead of being
   * refused; the payer's client can send the same authorization again (a hosted resource, the facilitator's settle).
   */
  awaitApproval?: boolean;
}

// The authorization claimed (its primary key: single use), and later the PaymentIntent that it paid.
const CLAIM = statement(
  "x402_claim",
  `INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, value, payload_hash, payment_identifier)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING nonce`,
);
/**
 * The usual settlement's first statement, three in one round trip: the authorization's single-use lock TRIED
 * (lib/single-use.ts), whether an approval request names it ($2; null when the sale does not wait for approvals), and
 * its claim, inserted only when the lock is held and no request names it. The lock's CTE is volatile, so it runs once,
 * before the insert that reads it. With a request, the claim waits for the approval gate (the rare case: a statement
 * each). The primary key still decides single use: the insert conflicts with a claim committed by anyone. Its fourth
 * part: the payer wallet's spending agent, which the capture's policy check reads (SpendingContext.walletAgent); its
 * fifth, the active signing key's row, which signs the sale's receipt (SaleReads, lib/receipts/receipt-for.ts). A sale
 * without catalog items also opens its checkout in it, when the claim is made (lockAndClaim).
 */
const LOCK_AND_CLAIM = statement("x402_lock_and_claim", lockAndClaimText());

/** LOCK_AND_CLAIM's text; `more`: CTEs after the claim's (which may read it) and columns after its own. */
function lockAndClaimText(more = { ctes: "", columns: "" }): string {
  return `WITH held AS (SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked),
        gated AS (SELECT EXISTS (SELECT 1 FROM approval_requests WHERE x402_authorization = $2) AS approval),
        claimed AS (
          INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, value, payload_hash, payment_identifier)
          SELECT $3::text, $4::text, $5::text, $6::text, $7::text, $8::boolean, $9::text, $10::text, $11::text
            FROM held, gated WHERE held.locked AND NOT gated.approval
          ON CONFLICT DO NOTHING RETURNING nonce)${more.ctes}
   SELECT held.locked, gated.approval, (SELECT nonce FROM claimed) IS NOT NULL AS claimed,
          (SELECT row_to_json(agent) FROM (${agentByWalletText("$8::boolean", "$5::text")}) agent) AS wallet_agent,
          (SELECT row_to_json(k) FROM (${ACTIVE_KEY_TEXT}) k) AS signing_key${more.columns}
     FROM held, gated`;
}

type FirstRow = { locked: boolean; approval: boolean; claimed: boolean; wallet_agent: AgentRow | null; signing_key: ActiveKeyRow | null };

/**
 * The first statement, and with `opening` the sale's checkout (its PaymentIntent, order and checkout) inserted in it,
 * only when the claim is made (gatedInserts): one round trip fewer. `opened`: their rows, when it was.
 */
async function lockAndClaim(tx: Db, values: unknown[], opening?: PlannedCheckoutRows): Promise<FirstRow & { opened?: OpenedCheckout }> {
  if (!opening) return (await sqlIn(tx).rows<FirstRow>(LOCK_AND_CLAIM, values))[0];
  let pi: PaymentIntent | undefined;
  let order: Order | undefined;
  let checkout: Checkout | undefined;
  const writes = [
    returning(opening.paymentIntent, Prisma.PaymentIntentScalarFieldEnum, (row) => (pi = row as PaymentIntent)),
    returning(opening.order, Prisma.OrderScalarFieldEnum, (row) => (order = row as Order)),
    returning(opening.checkout, Prisma.CheckoutScalarFieldEnum, (row) => (checkout = row as Checkout)),
  ];
  const gated = gatedInserts(writes, "claimed", values.length);
  const text = lockAndClaimText({ ctes: `,\n${gated.ctes}`, columns: `, ${gated.columns}` });
  const [row] = await sqlIn(tx).rows<FirstRow & Record<string, unknown>>(named("x402_lock_claim_open", text), [...values, ...gated.values]);
  takeReturned(row, writes);
  return { ...row, opened: row.claimed && checkout && pi ? { checkout, pi, order } : undefined };
}

const CLAIM_PAID = statement(
  "x402_claim_paid",
  `UPDATE x402_authorizations SET payment_intent_id = $5 WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4`,
);

/** The single-use lock's kind of an authorization (lib/single-use.ts keys its locks `<kind>:<key>`). */
const SINGLE_USE_KIND: SingleUseKind = "x402";

export type Settlement =
  | { ok: true; paymentIntentId: string; orderId: string; replayed: boolean }
  | (RefusedPayment & { busy?: boolean; approval?: ApprovalRequest });

export function nonceUsed(payment: VerifiedPayment): RefusedPayment {
  return {
    ok: false,
    reason: "invalid_exact_evm_nonce_already_used",
    message: "This authorization (its nonce) was already used; nothing was charged.",
    networkName: payment.networkName,
    payer: payment.payer,
  };
}

/**
 * The x402 SettleResponse of a settled payment: the facilitator's answer, a hosted resource's PAYMENT-RESPONSE.
 * `transaction`: the on-chain transaction in live mode, the PaymentIntent's id in test mode (no chain).
 */
export function settleResponse(payment: VerifiedPayment, transaction: string) {
  return { success: true, transaction, network: payment.networkName, payer: payment.payer };
}

/** What a capture reads of a verified payment (an `exact` one, or an `upto` one at its settled amount: settle-upto.ts). */
export type CapturedPayment = Pick<VerifiedPayment, "description" | "resourceUrl" | "cents" | "networkName" | "payer"> & {
  network: { caip2: string };
  authorization: { nonce: string };
};

/**
 * The sale of a verified payment, in the caller's transaction: an ordinary checkout of the merchant (one line, or the
 * catalog items), captured under the authorization's charge key through the mode's rail, or `rail` (live: x402-evm).
 */
export async function captureSale(
  tx: Db,
  merchant: Scope,
  payment: CapturedPayment,
  sale: SaleOf,
  charge: {
    chargeKey: string;
    rail?: Rail;
    paymentIntentId?: string;
    approved?: ApprovalRequest;
    walletAgent?: AgentRow | null;
    /** The sale's checkout, opened already in this transaction (the first statement's: lockAndClaim). */
    opened?: OpenedCheckout;
    /** Given the PaymentIntent as the charge left it (CaptureHooks.charged). */
    charged?: (pi: PaymentIntent) => void;
  },
) {
  // Approved (await-approval.ts): the checkout parked for the request is the one charged, the threshold passed. Else
  // one opened now; with a PaymentIntent id made now, it is the capture's without a lock (CaptureHooks.opened).
  const fresh = !charge.approved && !charge.paymentIntentId;
  const opened = charge.opened ?? (fresh ? await openNow(tx, merchant, payment, sale) : undefined);
  const checkout =
    opened?.checkout ??
    (charge.approved
      ? await reopenApproved(tx, charge.approved.checkoutId)
      : await openSaleCheckout(tx, merchant, payment, sale, charge.paymentIntentId));
  const approval: ApprovalRoute | undefined = charge.approved
    ? { approvedRequestId: charge.approved.id }
    : sale.awaitApproval && !merchant.livemode
      ? { canWait: true }
      : undefined;
  return captureCheckout(
    tx,
    merchant,
    checkout.id,
    { paymentMethod: `x402:${payment.network.caip2}:${payment.payer}` },
    {
      chargeKey: charge.chargeKey,
      opened,
      verifiedPayment: true,
      rail: charge.rail,
      charged: charge.charged,
      // A payer wallet a spending agent lists counts against that agent's policy (docs/spending-policies.md).
      spending: {
        walletAddress: payment.payer,
        walletAgent: charge.walletAgent,
        protocol: sale.source ?? "x402",
        ...(approval ? { approval } : {}),
      },
    },
  );
}

/** A checkout this transaction opened, with its PaymentIntent: the capture's without a lock (CaptureHooks.opened). */
type OpenedCheckout = { checkout: Checkout; pi: PaymentIntent; order?: Order };

async function openNow(tx: Db, merchant: Scope, payment: CapturedPayment, sale: SaleOf): Promise<OpenedCheckout> {
  const { checkout, paymentIntent } = await openCheckoutRows(tx, merchant, ...saleCheckout(payment, sale), true);
  return { checkout, pi: paymentIntent };
}

/** The sale's checkout (one line, or the catalog items), open: captured at once, or parked while its approval waits. */
export function openSaleCheckout(tx: Db, merchant: Scope, payment: CapturedPayment, sale: SaleOf, paymentIntentId?: string) {
  return openCheckout(tx, merchant, ...saleCheckout(payment, sale, paymentIntentId));
}

function saleCheckout(payment: CapturedPayment, sale: SaleOf, paymentIntentId?: string): [OpenCheckoutInput, CheckoutOrigin] {
  const description = payment.description || payment.resourceUrl || sale.name;
  return [
    {
      amount: payment.cents,
      currency: "USD",
      items: sale.items?.length ? sale.items : [{ name: sale.name.slice(0, 256), quantity: 1, unitAmount: payment.cents }],
      description: description.slice(0, 1000),
      metadata: {
        x402_network: payment.networkName.slice(0, 500),
        x402_payer: payment.payer,
        x402_nonce: payment.authorization.nonce.toLowerCase(),
        ...(payment.resourceUrl ? { x402_resource: payment.resourceUrl.slice(0, 500) } : {}),
      },
      expiresInSeconds: 300,
    },
    {
      source: sale.source ?? "x402",
      sale: { paidResourceId: sale.paidResourceId ?? null, payer: payment.payer },
      paymentIntentId,
    },
  ];
}

/**
 * Test mode's settlement. The authorization claimed before: its first result when this is the very payment sent again
 * (replays.ts), else refused as used; `busy`: another transaction is settling it right now (the caller may wait).
 */
export async function settlePayment(
  tx: Db,
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  identity: PaymentIdentity,
): Promise<Settlement> {
  if (merchant.livemode) throw new Error("settlePayment settles test mode only; live mode settles on chain (settle-on-chain.ts)");
  const key = claimKeyOf(payment);
  const keyText = `${key.network}:${key.asset}:${key.payer}:${key.nonce}`;
  const claimKey = [key.network, key.asset, key.payer, key.nonce];
  const claimValues = [
    ...claimKey,
    merchant.merchantId,
    merchant.livemode,
    payment.authorization.value,
    identity.payloadHash,
    identity.paymentIdentifier,
  ];
  const lockKey = `${SINGLE_USE_KIND}:${keyText}`;
  // The sale's checkout, planned now (catalog items are priced from the products: opened later, as the capture reads them).
  const opening = sale.items?.length ? undefined : await planCheckoutRows(tx, merchant, ...saleCheckout(payment, sale));
  const first = await lockAndClaim(tx, [lockKey, sale.awaitApproval ? keyText : null, ...claimValues], opening);
  if (!first?.locked) return { ...nonceUsed(payment), busy: true }; // being settled right now
  // Human approval (await-approval.ts): waiting, declined or expired answers here, before the claim: the nonce stays unspent.
  const gate = first.approval ? await approvalGate(tx, merchant, keyText, payment, sale.paidResourceId ?? null) : null;
  if (gate?.kind === "pending") return { ...approvalPendingRefusal(payment, gate.request), approval: gate.request };
  if (gate?.kind === "refused") return gate.refusal;
  const approved = gate?.kind === "approved" ? gate.request : undefined;
  const claimed = first.claimed || (first.approval && (await sqlIn(tx).rows<{ nonce: string }>(CLAIM, claimValues)).length > 0);
  if (!claimed) return settledBefore(tx, merchant, payment, sale, identity);

  // The payer wallet's spending agent came with the claim: the capture looks it up no more.
  const walletAgent = first.wallet_agent;
  let charged: PaymentIntent | undefined;
  const order = await captureSale(tx, merchant, payment, sale, {
    chargeKey: `x402:${keyText}`,
    opened: first.opened,
    approved,
    walletAgent,
    charged: (pi) => (charged = pi),
  });
  await deferWrites(tx, [{ statement: CLAIM_PAID, values: [...claimKey, order.paymentIntentId] }]); // with the next statement
  if (approved) await recordApprovedPayment(tx, approved, order.paymentIntentId);
  await sale.inClaim?.(tx, order.paymentIntentId, charged && { paymentIntent: charged, signingKey: first.signing_key });
  return { ok: true, paymentIntentId: order.paymentIntentId, orderId: order.id, replayed: false };
}

/** Nothing inserted: the authorization was claimed (the first result, or used), or its payment-identifier was. */
export async function settledBefore(
  tx: Db,
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  identity: PaymentIdentity,
): Promise<Settlement> {
  const claim = await readClaim(tx, claimKeyOf(payment));
  if (!claim) return (await identifierTaken(tx, merchant, identity.paymentIdentifier)) ? identifierConflict(payment) : nonceUsed(payment);
  const pi = await replayedPayment(tx, claim, merchant, identity, sale);
  if (pi === "conflict") return identifierConflict(payment);
  if (!pi?.orderId) return nonceUsed(payment);
  return { ok: true, paymentIntentId: pi.id, orderId: pi.orderId, replayed: true };
}
