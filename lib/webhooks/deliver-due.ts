// The cron tick's webhook task. In the long-running server, the background sender (sender.ts) does the
// sending, woken by every commit that emitted events: the tick only wakes it (retries that came due, leases
// that ran out, anything a lost notification left) and never waits on a send, so slow endpoints cannot
// hold up expiry, settlement or billing. Where nothing runs in the background (a serverless host, or
// WEBHOOK_WAKE_ON_COMMIT=0) the tick sends itself, claiming for at most WEBHOOK_TICK_BUDGET_MS after the
// money tasks have run.
import { backgroundSenderRunning, runSenderOnce, wakeBackgroundSender } from "./sender";

export { retryDelaySeconds } from "./sender";

export async function deliverDueWebhooks(): Promise<number> {
  if (backgroundSenderRunning()) {
    wakeBackgroundSender();
    return 0;
  }
  return runSenderOnce();
}
