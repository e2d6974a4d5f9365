// One tick of the background work the cron route triggers: each task is independent, so one failing
// task never stops the others, and the summary says what each did.
import { purgeKeyChallenges } from "../agent-identity/key-challenges";
import { purgeAgentNonces } from "../agent-identity/purge-nonces";
import { purgeLinkTokens } from "../auth/email-links";
import { purgePendingSignUps } from "../auth/pending-sign-ups";
import { purgeSignInThrottles } from "../auth/limits";
import { purgeEndedSessions } from "../auth/sessions";
import { expireApprovalRequests } from "../shared-payment-tokens/expire-approvals";
import { expireUnsettledApprovals } from "../x402/await-approval";
import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import { getDb } from "../db";
import { decideDisputes, openTestDisputes } from "../disputes/run-test-disputes";
import { streamStats } from "../events/stream-hub";
import { purgeExpiredStreamLeases } from "../events/stream-leases";
import { purgeExpiredRecords } from "../idempotency/claims";
import { deliverDueMails } from "../mail/deliver-due";
import { foldBalanceDeltas } from "../ledger/balances";
import { purgeOldMails } from "../mail/outbox";
import { purgeExpiredPaidAnswers } from "../paid-resources/paid-answers";
import { purgeOAuthLeftovers, purgeUnusedOAuthClients } from "../oauth/purge";
import { chargeMeterPayments } from "../meters/charge-meter-payments";
import { expireReservations } from "../meters/expire-reservations";
import { reconcileFundings } from "../meters/fund-meter";
import { settleDueMeters } from "../meters/settle-meters";
import { resolveProcessingPayments } from "../payments/recover-charge";
import { settleDuePaymentIntents } from "../payments/settle-payment-intents";
import { purgeIdleBuckets } from "../rate-limit";
import { lockPaymentOwner } from "./payment-owners";
import { deliverDueWebhooks } from "../webhooks/deliver-due";
import { fanOutEvents } from "../webhooks/fan-out";

type Task = () => Promise<number>;

const TASKS: Record<string, Task> = {
  // Before checkouts: an expired approval request ends its checkout (pending_approval, which the checkout sweep skips).
  // x402: an approved request whose authorization never came back ends its parked checkout too (lib/x402/await-approval.ts).
  approvalRequestsExpired: async () => (await expireApprovalRequests(getDb())) + (await expireUnsettledApprovals(getDb())),
  checkoutsExpired: () => expireOverdueCheckouts(getDb()),
  meterReservationsExpired: () => expireReservations(getDb()),
  // Before settlement, so funds a late reconcile finds for a closed meter are returned in this same tick.
  meterFundingsReconciled: () => reconcileFundings(getDb()),
  // Before settlement, so an aggregate PaymentIntent opened and charged now settles in this same tick.
  meterSettlementsOpened: () => settleDueMeters(getDb()),
  meterPaymentsCharged: () => chargeMeterPayments(getDb()),
  // The charges whose rail answered `pending`, asked again; before settlement, so one captured now settles in this tick.
  paymentsResolved: () => resolveProcessingPayments(getDb(), lockPaymentOwner),
  paymentIntentsSettled: () => settleDuePaymentIntents(getDb()),
  // After settlement (a dispute opens against settled funds), so a test payment settled now is disputed in this tick.
  testDisputesOpened: () => openTestDisputes(getDb()),
  disputesDecided: () => decideDisputes(getDb()),
  // After the postings above: their deltas folded into the running balances in this same tick.
  ledgerDeltasFolded: () => foldBalanceDeltas(getDb()),
  // After the tasks above, so that the events they emit go out in this same tick.
  eventsFannedOut: fanOutEvents,
  webhooksDelivered: deliverDueWebhooks,
  mailsDelivered: deliverDueMails,
  idempotencyRecordsPurged: () => purgeExpiredRecords(getDb()),
  rateLimitBucketsPurged: purgeIdleBuckets,
  dashboardSessionsPurged: () => purgeEndedSessions(getDb()),
  signInThrottlesPurged: () => purgeSignInThrottles(getDb()),
  emailLinkTokensPurged: () => purgeLinkTokens(getDb()),
  pendingSignUpsPurged: () => purgePendingSignUps(getDb()),
  emailOutboxPurged: () => purgeOldMails(),
  oauthLeftoversPurged: purgeOAuthLeftovers,
  oauthUnusedClientsPurged: purgeUnusedOAuthClients,
  agentNoncesPurged: () => purgeAgentNonces(getDb()),
  agentKeyChallengesPurged: () => purgeKeyChallenges(getDb()),
  eventStreamLeasesPurged: purgeExpiredStreamLeases,
  paidAnswersPurged: () => purgeExpiredPaidAnswers(getDb()),
};

export interface TickSummary {
  [task: string]: number | { error: string } | Record<string, number>;
  durationsMs: Record<string, number>;
}

export async function runTick(): Promise<TickSummary> {
  const summary: TickSummary = { durationsMs: {} };
  for (const [name, task] of Object.entries(TASKS)) {
    const startedAt = performance.now();
    try {
      summary[name] = await task();
    } catch (err) {
      summary[name] = { error: err instanceof Error ? err.message : String(err) };
    }
    summary.durationsMs[name] = Math.round(performance.now() - startedAt);
  }
  const streams = streamStats(); // in this process: a client's disconnect brings `open` down
  summary.eventStreamsOpen = streams.open;
  summary.eventStreams = { ...streams };
  return summary;
}
