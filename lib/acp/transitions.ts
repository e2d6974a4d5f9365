// ACP checkout session lifecycle as stored: open -> completed | canceled. An open session is shown as
// ready_for_payment or not_ready_for_payment, decided from the catalog when read (lib/acp/view-session.ts).
// The one place a session's stored status changes.
import type { Db } from "../db";
import type { AcpCheckoutSession, Prisma } from "../generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "../state-machine";

export const STORED_SESSION_STATUSES = ["open", "completed", "canceled"] as const;
export type StoredSessionStatus = (typeof STORED_SESSION_STATUSES)[number];

export const SESSION_TRANSITIONS: TransitionTable<StoredSessionStatus> = {
  open: ["completed", "canceled"],
  completed: [],
  canceled: [],
};

type Changes = Omit<Prisma.AcpCheckoutSessionUpdateManyMutationInput, "status" | "id">;

export async function transitionSession(tx: Db, id: string, to: StoredSessionStatus, changes: Changes = {}): Promise<AcpCheckoutSession> {
  const updated = await tx.acpCheckoutSession.updateManyAndReturn({
    where: { id, status: { in: fromStatesOf(SESSION_TRANSITIONS, to) } },
    data: { ...changes, status: to, updatedAt: new Date() },
  });
  if (updated.length !== 1) {
    const current = await tx.acpCheckoutSession.findUnique({ where: { id }, select: { status: true } });
    throw transitionConflict("checkout session", id, current?.status, to);
  }
  return updated[0];
}
