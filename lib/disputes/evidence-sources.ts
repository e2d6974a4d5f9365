// What the service already holds about a disputed payment (docs/disputes.md, "The evidence pack"), one section per
// source. Every read is by the payment's own ids (its primary key, its order's unique id, an index on its id), so the
// cost of a pack never grows with the merchant's history. A section that does not apply is null.
import { createHash } from "node:crypto";
import { decodeProtectedHeader } from "jose";
import type { Db } from "../db";
import type { PaymentIntent } from "../generated/prisma/client";
import { readAnswer } from "../paid-resources/paid-answers";
import type { Scope } from "../scope";

/** The card network's verified agent, as the payment recorded it when the signature verified (docs/cards.md). */
export async function agentSection(db: Db, pi: PaymentIntent) {
  const agent = pi.agent as Record<string, unknown> | null;
  if (!agent) return null;
  const keyId = typeof agent.agentKeyId === "string" ? agent.agentKeyId : null;
  const key = keyId
    ? await db.agentKey.findUnique({ where: { id: keyId }, select: { id: true, name: true, alg: true, status: true, createdAt: true } })
    : null;
  return {
    network: agent.network ?? null,
    protocol: agent.protocol ?? null,
    agentKeyId: keyId,
    agentName: key?.name ?? null,
    keyid: agent.keyid ?? null,
    algorithm: key?.alg ?? null,
    keyStatus: key?.status ?? null,
    operator: agent.operator ?? agent.signatureAgent ?? null,
    signature: { tag: agent.tag ?? null, signatureAgent: agent.signatureAgent ?? null, nonce: agent.nonce ?? null },
    credentialId: agent.credentialId ?? null,
    verified: agent.verified === true,
    verifiedAt: agent.verifiedAt ?? null,
  };
}

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The AP2 CartMandate the merchant signed and the PaymentMandate (with the user's authorization) that paid it. */
export async function ap2Section(db: Db, scope: Scope, pi: PaymentIntent) {
  if (!pi.orderId) return null;
  const row = await db.ap2Mandate.findFirst({ where: { orderId: pi.orderId, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!row) return null;
  const cart = objectOr(row.cartMandate);
  const authorization = typeof cart.merchant_authorization === "string" ? cart.merchant_authorization : null;
  let kid: string | null = null;
  try {
    kid = authorization ? (decodeProtectedHeader(authorization).kid ?? null) : null;
  } catch {
    kid = null;
  }
  const payment = objectOr(row.paymentMandate);
  return {
    cartMandate: {
      jti: row.jti,
      cartId: row.cartId,
      cartHash: row.cartHash,
      merchantSignatureKid: kid,
      merchantAuthorization: authorization,
      contents: cart.contents ?? null,
      expiresAt: row.expiresAt.toISOString(),
    },
    paymentMandate: {
      id: row.paymentMandateId,
      contents: payment.payment_mandate_contents ?? null,
      tokenId: row.tokenId,
      usedAt: row.usedAt?.toISOString() ?? null,
    },
    /** The user's own authorization of the PaymentMandate, as the agent sent it (null when it sent none). */
    userAuthorization: payment.user_authorization ?? null,
  };
}

/** The x402 `exact` authorization the payment settled: payer, nonce, amount and window. */
export async function x402Section(db: Db, scope: Scope, pi: PaymentIntent) {
  if (pi.source !== "x402") return null;
  const row = await db.x402Authorization.findFirst({
    where: { paymentIntentId: pi.id, merchantId: scope.merchantId, livemode: scope.livemode },
  });
  const settlement = pi.settlement as Record<string, unknown> | null;
  if (!row && !settlement) return null;
  return {
    network: row?.network ?? settlement?.network ?? null,
    asset: row?.asset ?? settlement?.asset ?? null,
    payer: row?.payer ?? pi.payer,
    nonce: row?.nonce ?? null,
    value: row?.value ?? null,
    validBefore: row?.validBefore != null ? new Date(Number(row.validBefore) * 1000).toISOString() : null,
    transaction: row?.transactionHash ?? settlement?.transaction ?? null,
    settledAt: row?.createdAt.toISOString() ?? null,
  };
}

/** The ACP checkout session the payment completed, and its trace (when it was opened, changed, completed). */
export async function acpSection(db: Db, scope: Scope, pi: PaymentIntent) {
  if (pi.source !== "acp" || !pi.orderId) return null;
  const row = await db.acpCheckoutSession.findFirst({
    where: { orderId: pi.orderId, merchantId: scope.merchantId, livemode: scope.livemode },
  });
  if (!row) return null;
  return {
    sessionId: row.id,
    status: row.status,
    items: row.items,
    buyer: row.buyer,
    fulfillmentDetails: row.fulfillmentDetails,
    trace: [
      { step: "session_created", at: row.createdAt.toISOString() },
      { step: "session_updated", at: row.updatedAt.toISOString() },
      ...(row.completedAt ? [{ step: "session_completed", at: row.completedAt.toISOString() }] : []),
      ...(row.canceledAt ? [{ step: "session_canceled", at: row.canceledAt.toISOString() }] : []),
    ],
  };
}

/** The paid resource's answer to this payment: the SHA-256 of the body delivered, and when (kept for the replay window). */
export async function deliverySection(db: Db, pi: PaymentIntent) {
  if (!pi.paidResourceId) return null;
  const [stored] = await db.$queryRaw<{ answeredAt: Date | null }[]>`
    SELECT answered_at AS "answeredAt" FROM paid_answers WHERE payment_intent_id = ${pi.id}`;
  const read = await readAnswer(db, pi.id);
  const answer = read.answer;
  return {
    paidResourceId: pi.paidResourceId,
    deliveredAt: stored?.answeredAt?.toISOString() ?? null,
    status: answer?.kind === "content" ? answer.status : null,
    contentType: answer?.kind === "content" ? answer.contentType : null,
    responseSha256: answer?.kind === "content" ? createHash("sha256").update(answer.body).digest("hex") : null,
    /** false: the answer was not kept (a non-replayable resource, or past PAID_REPLAY_WINDOW_SECONDS). */
    retained: answer?.kind === "content",
  };
}

const MAX_EVENTS = 50;

/** The payment's and its order's events, and each webhook delivery that told the merchant of them, with the last attempt. */
export async function notificationsSection(db: Db, scope: Scope, pi: PaymentIntent) {
  const objectIds = [pi.id, ...(pi.orderId ? [pi.orderId] : [])];
  const events = await db.event.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, objectId: { in: objectIds } },
    orderBy: { createdAt: "asc" },
    take: MAX_EVENTS,
    select: { id: true, type: true, createdAt: true },
  });
  const deliveries = events.length
    ? await db.webhookDelivery.findMany({
        where: { eventId: { in: events.map((e) => e.id) } },
        orderBy: { createdAt: "asc" },
        take: MAX_EVENTS * 4,
        select: {
          id: true,
          eventId: true,
          status: true,
          attempts: true,
          endpoint: { select: { id: true, url: true } },
          log: { orderBy: { attemptedAt: "desc" }, take: 1, select: { responseStatus: true, attemptedAt: true, status: true } },
        },
      })
    : [];
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  return {
    events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt.toISOString() })),
    webhookDeliveries: deliveries.map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      eventType: typeOf.get(d.eventId) ?? null,
      endpointId: d.endpoint.id,
      url: d.endpoint.url,
      status: d.status,
      attempts: d.attempts,
      lastAttempt: d.log[0]
        ? { status: d.log[0].status, responseStatus: d.log[0].responseStatus, attemptedAt: d.log[0].attemptedAt.toISOString() }
        : null,
    })),
  };
}
