// A Dynamic Token Verification Code (docs/cards.md "Codes"): the agent asks for one per purchase with a Web Bot
// Auth-signed request by the token's own agent key. Three digits (it fits a card's CVC field), single use, valid
// 5 minutes, stored only as a hash bound to the token.
import { createHash, randomInt } from "node:crypto";
import { requireVerifiedAgent } from "../agent-identity/signed-request";
import { declined } from "../card-networks/declines";
import type { Db } from "../db";
import { BusyError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { findToken, tokenBoundTo, tokenStatus } from "./agentic-tokens";

export const CODE_LIFETIME_MS = 5 * 60_000;

export function codeHash(tokenId: string, code: string): string {
  return createHash("sha256").update(`${tokenId}:${code}`).digest("hex");
}

export async function requestCode(tx: Db, req: Request, rawBody: string | undefined, payer: Scope, tokenId: string) {
  const agent = await requireVerifiedAgent(tx, req, rawBody, payer, "mastercard", "credential");
  const token = await findToken(tx, payer, tokenId);
  if (!tokenBoundTo(token, agent)) throw declined("agent_key_mismatch", `Token ${tokenId} is bound to another agent.`);
  const status = tokenStatus(token);
  if (status !== "active")
    throw declined(
      status === "revoked" ? "token_revoked" : status === "expired" ? "token_expired" : "token_uses_exhausted",
      `Token ${tokenId} is ${status}.`,
    );
  const expiresAt = new Date(Date.now() + CODE_LIFETIME_MS);
  // Spent and lapsed codes are dropped (a code presented again is refused all the same: dtvc_invalid).
  await tx.$executeRaw`DELETE FROM agentic_token_codes WHERE token_id = ${token.id} AND (used_at IS NOT NULL OR expires_at <= now())`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const code = String(randomInt(1000)).padStart(3, "0");
    const rows = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO agentic_token_codes (id, token_id, code_hash, expires_at)
      VALUES (${createId("agenticTokenCode")}, ${token.id}, ${codeHash(token.id, code)}, ${expiresAt})
      ON CONFLICT (token_id, code_hash) DO NOTHING RETURNING id`;
    if (rows[0]) return { object: "dtvc" as const, agenticToken: token.id, dtvc: code, expiresAt: expiresAt.toISOString() };
  }
  throw new BusyError("Too many codes of this token are outstanding; retry later.");
}

/** Spends a code: one UPDATE that succeeds once, only while unused and unexpired. */
export async function spendCode(tx: Db, tokenId: string, code: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE agentic_token_codes SET used_at = now()
     WHERE token_id = ${tokenId} AND code_hash = ${codeHash(tokenId, code)} AND used_at IS NULL AND expires_at > now()
     RETURNING id`;
  return rows[0]?.id ?? null;
}
