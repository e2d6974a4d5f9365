// The agent evidence pack of a dispute (docs/disputes.md, "The evidence pack"): one JSON document assembled from what
// the service already holds about the disputed payment (its signed receipt, how and by which protocol it came, the
// card network's verified agent, the AP2 mandates, the x402 authorization, the ACP session, what the paid resource
// delivered, the events and webhook deliveries that told the merchant), signed by the service's receipt key as a
// compact JWS (ES256, `kid` in /.well-known/jwks.json), so anyone the merchant hands it to can check it came from here.
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { getDb, type Db } from "../db";
import { env } from "../env";
import { NotFoundError } from "../errors";
import { isNonCustodialRail } from "../rails";
import { receiptOf } from "../receipts/receipt-for";
import { activeSigningKey } from "../receipts/signing-key";
import type { Scope } from "../scope";
import { acpSection, agentSection, ap2Section, deliverySection, notificationsSection, x402Section } from "./evidence-sources";

/** The JWS header's `typ`: an evidence pack is a JWT whose claims are the document. */
export const EVIDENCE_PACK_TYP = "evidence-pack+jwt";

/** The protocol a payment came by, in words a card network's reviewer reads (the source is the service's own name). */
const PROTOCOLS: Record<string, string> = {
  x402: "x402 (HTTP 402, EIP-3009 authorization)",
  mpp: "Machine Payments Protocol",
  acp: "Agentic Commerce Protocol",
  a2a: "Agent2Agent",
  ap2: "Agent Payments Protocol (AP2) over A2A",
  mcp: "Model Context Protocol tool",
  visa: "Visa Intelligent Commerce (Trusted Agent Protocol)",
  mastercard: "Mastercard Agent Pay (Web Bot Auth)",
  paywall: "paywall",
  spt: "shared payment token",
  meter: "metered usage",
  api: "merchant API checkout",
  pay_page: "hosted pay page",
};

export type EvidencePackDocument = Awaited<ReturnType<typeof assemble>>;

async function assemble(db: Db, scope: Scope, disputeId: string) {
  const dispute = await db.dispute.findFirst({ where: { id: disputeId, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!dispute) throw new NotFoundError("dispute", disputeId);
  const pi = await db.paymentIntent.findUniqueOrThrow({ where: { id: dispute.paymentIntentId } });
  const receiptJws = await receiptOf(db, pi);
  const [agent, ap2, x402, acp, delivery, notifications] = await Promise.all([
    agentSection(db, pi),
    ap2Section(db, scope, pi),
    x402Section(db, scope, pi),
    acpSection(db, scope, pi),
    deliverySection(db, pi),
    notificationsSection(db, scope, pi),
  ]);
  const now = new Date();
  return {
    iss: env.BASE_URL,
    sub: dispute.id,
    iat: Math.floor(now.getTime() / 1000),
    object: "evidence_pack_document" as const,
    version: 1,
    generatedAt: now.toISOString(),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    dispute: {
      id: dispute.id,
      reason: dispute.reason,
      status: dispute.status,
      amount: dispute.amount,
      currency: dispute.currency,
      openedAt: dispute.createdAt.toISOString(),
      evidenceDueBy: dispute.evidenceDueBy.toISOString(),
    },
    payment: {
      paymentIntentId: pi.id,
      orderId: pi.orderId,
      checkoutId: pi.checkoutId,
      amount: pi.amountCaptured,
      amountRefunded: pi.amountRefunded,
      currency: pi.currency,
      status: pi.status,
      source: pi.source,
      protocol: PROTOCOLS[pi.source] ?? pi.source,
      paymentMethod: pi.paymentMethod,
      rail: pi.rail,
      payer: pi.payer,
      customerId: pi.customerId,
      capturedAt: pi.capturedAt?.toISOString() ?? null,
      settledAt: pi.settledAt?.toISOString() ?? null,
      /** false: an on-chain transfer, final on the chain; no card network can reverse it (docs/disputes.md "Live mode"). */
      disputableThroughNetwork: !isNonCustodialRail(pi.rail),
    },
    receipt: {
      paymentIntentId: pi.id,
      kid: decodeProtectedHeader(receiptJws).kid ?? null,
      jws: receiptJws,
      claims: decodeJwt(receiptJws),
      jwksUrl: `${env.BASE_URL}/.well-known/jwks.json`,
    },
    agent,
    ap2,
    x402,
    acp,
    delivery,
    events: notifications.events,
    webhookDeliveries: notifications.webhookDeliveries,
  };
}

/** The pack assembled on `db` (a transaction when a submission attaches it) and signed. 404 outside the scope. */
export async function buildEvidencePack(db: Db, scope: Scope, disputeId: string): Promise<{ document: EvidencePackDocument; jws: string }> {
  const document = await assemble(db, scope, disputeId);
  const key = await activeSigningKey(db);
  const jws = await new SignJWT({ ...document })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: EVIDENCE_PACK_TYP })
    .sign(key.privateKey);
  return { document, jws };
}

/** The stable entry point (the API's routes and the dashboard): the dispute's evidence pack, signed. */
export function evidencePackFor(scope: Scope, disputeId: string): Promise<{ document: EvidencePackDocument; jws: string }> {
  return buildEvidencePack(getDb(), scope, disputeId);
}
