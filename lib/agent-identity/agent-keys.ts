// Agent keys (agk_; docs/cards.md "Agent keys"): the agent provider (the payer, with its own API key) registers the
// public key its agent signs with, per network, proving it holds the private key (register-agent-key.ts). The keyid
// is the key's RFC 7638 thumbprint; a key is unique per network and mode. Mastercard's "know your agent": a name
// starting `pending_` registers the agent as `pending_verification` (test mode's way to get an unverified agent),
// which cannot pay until approved.
import { z } from "zod";
import type { Db } from "../db";
import { env } from "../env";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import type { AgentKey } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst, NEWEST_FIRST } from "../pagination";
import type { Scope } from "../scope";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import { ListQuery } from "../validation/common";
import { jwkThumbprint, PublicJwk, publishedJwk, RFC9421_TEST_KEY_THUMBPRINT } from "./jwk";
import type { Network } from "./profiles";

export const RegisterAgentBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    jwk: PublicJwk,
    /** The payer's spending agent whose policy governs what this key's agent pays (docs/spending-policies.md). */
    spendingAgentId: z
      .string()
      .regex(/^sag_[0-9A-Za-z]{1,64}$/, "must be a sag_ id")
      .optional(),
  })
  .strict();
export type RegisterAgentInput = z.output<typeof RegisterAgentBody>;
export const ListAgentsQuery = z.object({ ...ListQuery.shape }).strict();

export const DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json";

/** The Web Bot Auth identity of a Mastercard agent: its own key directory (type jwks_uri) on this service. */
export function signatureAgentOf(key: Pick<AgentKey, "id" | "network">, base = env.BASE_URL): string | null {
  return key.network === "mastercard" ? `${base}/mastercard/agents/${key.id}/directory` : null;
}

export function serializeAgentKey(key: AgentKey) {
  return {
    id: key.id,
    object: "agent_key" as const,
    network: key.network,
    name: key.name,
    keyid: key.keyid,
    alg: key.alg,
    jwk: publishedJwk(key.jwk as PublicJwk),
    status: key.status,
    signatureAgent: signatureAgentOf(key),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    spendingAgentId: key.spendingAgentId,
    livemode: key.livemode,
    createdAt: key.createdAt.toISOString(),
  };
}

/** Stores the key (its proof of possession checked first: register-agent-key.ts). */
/** The key's keyid, when this owner may register it at all (live mode refuses the RFC 9421 test key: 400). */
export function registrableKeyid(owner: Scope, input: RegisterAgentInput): string {
  const keyid = jwkThumbprint(input.jwk);
  if (owner.livemode && keyid === RFC9421_TEST_KEY_THUMBPRINT) {
    throw new ValidationError("The RFC 9421 test key cannot be registered in live mode.", [
      { path: "jwk", message: "a published test key" },
    ]);
  }
  return keyid;
}

export async function insertAgentKey(tx: Db, owner: Scope, network: Network, input: RegisterAgentInput) {
  const keyid = registrableKeyid(owner, input);
  const pending = network === "mastercard" && input.name.startsWith("pending_");
  const spendingAgentId = await requireOwnSpendingAgent(tx, owner, input.spendingAgentId); // another payer's: 404
  const now = new Date();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO agent_keys (id, merchant_id, livemode, network, name, jwk, alg, keyid, status, spending_agent_id, created_at, updated_at)
    VALUES (${createId("agentKey")}, ${owner.merchantId}, ${owner.livemode}, ${network}, ${input.name},
            ${JSON.stringify({ kty: input.jwk.kty, crv: input.jwk.crv, x: input.jwk.x })}::jsonb, 'ed25519', ${keyid},
            ${pending ? "pending_verification" : "active"}, ${spendingAgentId}, ${now}, ${now})
    ON CONFLICT (network, livemode, keyid) DO NOTHING RETURNING id`;
  if (!rows[0])
    throw new ConflictError(`This public key (keyid ${keyid}) is already registered on ${network}.`, {
      reason: "key_already_registered",
      keyid,
    });
  return serializeAgentKey(await tx.agentKey.findUniqueOrThrow({ where: { id: rows[0].id } }));
}

/** The owner's key of this network and mode; else 404. */
export async function findAgentKey(db: Db, owner: Scope, network: Network, id: string): Promise<AgentKey> {
  const key = await db.agentKey.findFirst({ where: { id, network, merchantId: owner.merchantId, livemode: owner.livemode } });
  if (!key) throw new NotFoundError("agent_key", id);
  return key;
}

export async function getAgentKey(db: Db, owner: Scope, network: Network, id: string) {
  return serializeAgentKey(await findAgentKey(db, owner, network, id));
}

export async function listAgentKeys(db: Db, owner: Scope, network: Network, query: z.output<typeof ListAgentsQuery>) {
  return listNewestFirst(
    db.agentKey,
    { scope: { merchantId: owner.merchantId, livemode: owner.livemode, network } },
    query,
    serializeAgentKey,
  );
}

/** Revoked for good: every later signature by it is refused with `revoked_key`. Revoking twice is harmless. */
export async function revokeAgentKey(tx: Db, owner: Scope, network: Network, id: string) {
  await findAgentKey(tx, owner, network, id);
  const now = new Date();
  await tx.agentKey.updateMany({ where: { id, status: { not: "revoked" } }, data: { status: "revoked", revokedAt: now, updatedAt: now } });
  return getAgentKey(tx, owner, network, id);
}

/** Test mode's "know your agent" verification: a pending Mastercard agent becomes active (409 in any other state). */
export async function approveAgentKey(tx: Db, owner: Scope, id: string) {
  if (owner.livemode)
    throw new ConflictError("Agents are verified by the network in live mode; this is a test-mode step.", { reason: "test_mode_only" });
  await findAgentKey(tx, owner, "mastercard", id);
  const changed = await tx.agentKey.updateMany({
    where: { id, status: "pending_verification" },
    data: { status: "active", updatedAt: new Date() },
  });
  if (changed.count === 0) throw new ConflictError(`Agent ${id} is not pending verification.`, { reason: "agent_not_pending" });
  return getAgentKey(tx, owner, "mastercard", id);
}

/**
 * A public key directory (Web Bot Auth, `application/http-message-signatures-directory+json`; also Visa's JWKS key
 * store): the network's active keys, or one agent's. Public: both modes' keys (a keyid names no merchant).
 */
export async function keyDirectory(db: Db, network: Network, agentId?: string) {
  const keys = await db.agentKey.findMany({
    where: { network, status: "active", ...(agentId ? { id: agentId } : {}) },
    orderBy: NEWEST_FIRST,
    take: 1000,
  });
  if (agentId && keys.length === 0) throw new NotFoundError("agent", agentId);
  return { keys: keys.map((k) => publishedJwk(k.jwk as PublicJwk)) };
}

/** Visa's `GET /keys?keyID=`: one active key by its keyid. */
export async function keyByKeyId(db: Db, network: Network, keyid: string) {
  const key = await db.agentKey.findFirst({ where: { network, keyid, status: "active" } });
  if (!key) throw new NotFoundError("key", keyid);
  return publishedJwk(key.jwk as PublicJwk);
}
