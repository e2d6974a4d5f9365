// The tick's two dispute tasks (docs/disputes.md), each idempotent and safe in several processes at once:
// openTestDisputes opens the dispute of each settled test payment made with a dispute test method
// DISPUTE_TEST_DELAY_SECONDS after its capture; decideDisputes acts on each dispute whose `decideAt` has come: the
// test rail's decision on submitted evidence (winning_evidence wins), or the evidence deadline passed (an open
// dispute is lost, an inquiry closes). One transaction per dispute; one that fails is retried next tick.
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { env } from "../env";
import type { Dispute } from "../generated/prisma/client";
import { inTransaction } from "../in-transaction";
import { finishDispute, type DisputeOutcome } from "./close-dispute";
import { openDispute } from "./open-dispute";
import { testDisputeFor, WINNING_EVIDENCE } from "./test-disputes";

const BATCH = 200;

async function eachInItsTransaction(db: Db, what: string, ids: string[], work: (tx: Db, id: string) => Promise<boolean>) {
  let done = 0;
  for (const id of ids) {
    const ok = await inTransaction(db, (tx) => work(tx, id)).catch((err) => {
      logUnlessDatabaseDown(`${what} ${id} failed:`, err);
      return false;
    });
    if (ok) done += 1;
  }
  return done;
}

export async function openTestDisputes(db: Db, now = new Date()): Promise<number> {
  const capturedBefore = new Date(now.getTime() - env.DISPUTE_TEST_DELAY_SECONDS * 1000);
  // The partial index payment_intents_test_dispute_idx (its predicate repeated here) holds just these payments.
  const due = await db.$queryRaw<{ id: string; payment_method: string }[]>`
    SELECT id, payment_method FROM payment_intents
     WHERE livemode = false AND payment_method LIKE 'pm_card_createDispute%'
       AND captured_at <= ${capturedBefore} AND status = 'settled'
       AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.payment_intent_id = payment_intents.id)
     ORDER BY captured_at LIMIT ${BATCH}`;
  const methods = new Map(due.map((row) => [row.id, row.payment_method]));
  return eachInItsTransaction(db, "opening the test dispute of", [...methods.keys()], async (tx, id) => {
    const opening = testDisputeFor(methods.get(id) ?? null);
    return opening ? (await openDispute(tx, id, opening, now)) !== null : false;
  });
}

/** What the tick makes of a dispute whose decideAt has come. */
function outcomeOf(dispute: Dispute): DisputeOutcome | null {
  if (dispute.status === "under_review") {
    const text = (dispute.evidence as Record<string, unknown>).uncategorizedText;
    return typeof text === "string" && text.includes(WINNING_EVIDENCE) ? "won" : "lost";
  }
  if (dispute.status === "needs_response") return "lost"; // no evidence by evidenceDueBy
  if (dispute.status === "warning_needs_response" || dispute.status === "warning_under_review") return "warning_closed";
  return null;
}

export async function decideDisputes(db: Db, now = new Date()): Promise<number> {
  const due = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM disputes WHERE decide_at <= ${now} ORDER BY decide_at LIMIT ${BATCH}`;
  return eachInItsTransaction(
    db,
    "deciding the dispute",
    due.map((row) => row.id),
    async (tx, id) => {
      // Another tick deciding it now, or the merchant answering it: skipped, and looked at again next tick.
      const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM disputes WHERE id = ${id} AND decide_at <= ${now} FOR UPDATE SKIP LOCKED`;
      if (!locked[0]) return false;
      const dispute = await tx.dispute.findUniqueOrThrow({ where: { id } });
      const outcome = outcomeOf(dispute);
      if (!outcome) return false;
      await finishDispute(tx, dispute, outcome, now);
      return true;
    },
  );
}
