// The status an ACP session shows, from what is stored (open | completed | canceled, lib/acp/transitions.ts) and
// what is true of it when read (docs/acp.md "Statuses"):
//  - expired: an open session past `expires_at` (SESSION_TTL_MS after creation); it can no longer change or pay;
//  - pending_approval: the payer's approval of the charge is pending (lib/approvals);
//  - complete_in_progress: a completion holds the session's completion lock (a transaction-scoped advisory lock,
//    so a reader sees it exactly while a completion runs, in any process);
//  - authentication_required: 3-D Secure asked for (lib/acp/three-ds.ts); requires_escalation instead when the
//    agent did not declare the 3ds intervention, so the buyer must authenticate with the merchant;
//  - incomplete: only something the agent can still give is missing (shipping address, shipping option);
//  - not_ready_for_payment: an error in the cart (unknown or archived item, no common payment handler, ...);
//  - ready_for_payment otherwise.
// 2026-01-16 has fewer statuses: expired shows as canceled, complete_in_progress as in_progress.
import type { Db } from "../db";
import type { AcpCheckoutSession } from "../generated/prisma/client";
import { acpError } from "./http";

export const SESSION_TTL_MS = 24 * 3600_000;

export type Status2026 =
  | "incomplete"
  | "not_ready_for_payment"
  | "requires_escalation"
  | "authentication_required"
  | "ready_for_payment"
  | "pending_approval"
  | "complete_in_progress"
  | "completed"
  | "canceled"
  | "expired";

export interface OpenFacts {
  /** The payer's approval is pending (docs/approvals.md). */
  awaitingApproval: boolean;
  completing: boolean;
  agentCan3ds: boolean;
  /** Errors besides what is missing. */
  errors: boolean;
  missing: boolean;
}

export function isExpired(session: Pick<AcpCheckoutSession, "status" | "expiresAt">, now = new Date()): boolean {
  return session.status === "open" && session.expiresAt !== null && session.expiresAt <= now;
}

export function status2026(session: AcpCheckoutSession, facts: OpenFacts): Status2026 {
  if (session.status !== "open") return session.status as "completed" | "canceled";
  if (isExpired(session)) return "expired";
  if (facts.awaitingApproval) return "pending_approval";
  if (facts.completing) return "complete_in_progress";
  if (session.authenticationRequiredAt) return facts.agentCan3ds ? "authentication_required" : "requires_escalation";
  if (facts.errors) return "not_ready_for_payment";
  return facts.missing ? "incomplete" : "ready_for_payment";
}

/** 2026-01-16's name for an open session that is expired or being completed, else undefined. */
export async function legacyOpenStatus(db: Db, session: AcpCheckoutSession): Promise<"canceled" | "in_progress" | undefined> {
  if (session.status !== "open") return undefined;
  if (isExpired(session)) return "canceled";
  return (await completionInProgress(db, session.id)) ? "in_progress" : undefined;
}

const completionLockKey = (id: string) => `acp_complete:${id}`;

/** Held by a completion until its transaction ends. */
export async function holdCompletionLock(tx: Db, id: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${completionLockKey(id)}))::text`;
}

/** Whether another transaction is completing the session now (its completion lock is taken). */
export async function completionInProgress(db: Db, id: string): Promise<boolean> {
  const [row] = await db.$queryRaw<
    { free: boolean }[]
  >`SELECT pg_try_advisory_xact_lock_shared(hashtext(${completionLockKey(id)})) AS free`;
  return !row.free;
}

export function sessionClosed(id: string, status: string) {
  return acpError("CONFLICT", `Checkout session ${id} is ${status}.`, { type: "invalid_request", code: `checkout_session_${status}` });
}

/** An update or completion needs an open, unexpired session (409 checkout_session_<status> otherwise). */
export function assertChangeable(session: AcpCheckoutSession): void {
  if (session.status !== "open") throw sessionClosed(session.id, session.status);
  if (isExpired(session)) throw sessionClosed(session.id, "expired");
}
