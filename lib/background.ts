// What a long-running server process does besides answering requests (started by instrumentation.ts).
import { env } from "./env";
import { startEventListener, subscribeToEvents, subscribeToMail } from "./events/listener";
import { startBackgroundMailSender, wakeBackgroundMailSender } from "./mail/sender";
import { eventsCommitted, startBackgroundSender, wakeBackgroundSender } from "./webhooks/sender";

/** WEBHOOK_WAKE_ON_COMMIT unset: on. "0": the cron tick alone sends webhooks (as on a serverless host). */
export function wakeOnCommitEnabled(): boolean {
  return env.WEBHOOK_WAKE_ON_COMMIT !== "0" && env.WEBHOOK_WAKE_ON_COMMIT !== "false";
}

export function startBackgroundWork(): void {
  if (!env.DATABASE_URL) return;
  if (wakeOnCommitEnabled()) {
    startBackgroundSender();
    // Every committed event insert: fan out. A reconnection of the listener (notifications may have been lost): fan
    // out and claim, as the tick does.
    subscribeToEvents((signal) => (signal ? eventsCommitted() : void wakeBackgroundSender()));
  }
  // Mail goes out at once whatever WEBHOOK_WAKE_ON_COMMIT says: a sign-up waits for its confirmation mail.
  if (env.SMTP_URL) {
    startBackgroundMailSender();
    subscribeToMail(() => wakeBackgroundMailSender());
  }
  startEventListener();
}
