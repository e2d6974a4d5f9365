// Dispute lifecycle (docs/disputes.md). The one place a dispute's status changes.
import type { Db } from "../db";
import { Prisma, type Dispute } from "../generated/prisma/client";
import { transition } from "../sql-model";
import type { TransitionTable } from "../state-machine";

export const DISPUTE_STATUSES = [
  "needs_response",
  "under_review",
  "won",
  "lost",
  "warning_needs_response",
  "warning_under_review",
  "warning_closed",
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_TRANSITIONS: TransitionTable<DisputeStatus> = {
  // Evidence submitted, or accepted (POST /close) / no evidence by evidenceDueBy: lost.
  needs_response: ["under_review", "lost"],
  under_review: ["won", "lost"],
  won: [],
  lost: [],
  // An inquiry (a warning): it never moves money, and closes whatever happens.
  warning_needs_response: ["warning_under_review", "warning_closed"],
  warning_under_review: ["warning_closed"],
  warning_closed: [],
};

/** Statuses in which the merchant may still add evidence, submit or accept. */
export const AWAITING_RESPONSE: readonly DisputeStatus[] = ["needs_response", "warning_needs_response"];

type Changes = Omit<Prisma.DisputeUpdateManyMutationInput, "status" | "id">;

const DISPUTES = { name: "dispute", table: "disputes", fields: Prisma.DisputeScalarFieldEnum, transitions: DISPUTE_TRANSITIONS };

/** Moves the dispute to `to` if its current status allows it (checked by the UPDATE itself), with `changes`. */
export function transitionDispute(tx: Db, id: string, to: DisputeStatus, changes: Changes = {}): Promise<Dispute> {
  return transition<Dispute, DisputeStatus>(tx, DISPUTES, id, to, changes);
}
