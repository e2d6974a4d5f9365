// The mail sender: delivers email_outbox rows over SMTP (transport.ts). One engine, two drivers, as the
// webhook sender (lib/webhooks/sender.ts):
//  - the long-running server's own loop (startBackgroundMailSender): woken by every commit that queued a
//    mail (the email_outbox insert trigger NOTIFYs aps_mail; lib/events/listener.ts), by its own finished
//    sends, by a timer at the next retry or run-out lease it knows of, and by the cron tick;
//  - the cron tick where nothing runs in the background (a serverless host): runMailSenderOnce(budget).
//
// Each attempt is claimed before it is sent: `pending` and due (or `sending` with a lease run out) ->
// `sending`, attempts + 1, a lease, in one UPDATE over rows locked FOR UPDATE SKIP LOCKED, so however many
// processes run, one mail is sent by one of them at a time. The outcome is recorded only while the row is
// still this attempt's (same status and attempt number). A sender that dies mid-send leaves a lease that
// runs out, and the mail is sent again: at least once, with the same Message-ID for the receiver to
// de-duplicate. Temporary failures (SMTP 4xx, connection errors, time-outs) are retried after
// MAIL_RETRY_BASE_SECONDS, doubling up to MAIL_RETRY_MAX_SECONDS, at most MAIL_MAX_ATTEMPTS attempts in
// all; a permanent one (5xx) is given up at once. Without SMTP_URL nothing runs and nothing is sent.
import { sql, statement } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { env } from "../env";
import { sendMail, type OutgoingMail, type SendOutcome } from "./transport";
import { globalSingleton } from "../global-singleton";

interface ClaimedMail {
  id: string;
  to: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: string;
  attempts: number;
}

/** A lease covers one send (at most MAIL_TIMEOUT_MS) and recording its outcome. */
const leaseSeconds = () => Math.ceil(env.MAIL_TIMEOUT_MS / 1000) + 30;

// $1 how many, $2 lease seconds. The first condition names the partial index's predicate (email_outbox_due_idx).
const CLAIM = statement(
  "mail_claim",
  `WITH due AS (
     SELECT id FROM email_outbox
      WHERE status IN ('pending', 'sending')
        AND ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND locked_until < now()))
      ORDER BY next_attempt_at, id
      LIMIT $1
      FOR UPDATE SKIP LOCKED
   )
   UPDATE email_outbox m
      SET status = 'sending', attempts = m.attempts + 1, locked_until = now() + make_interval(secs => $2::int)
     FROM due
    WHERE m.id = due.id
   RETURNING m.id, m."to", m.subject, m.text_body, m.html_body, m.kind, m.attempts`,
);

// $1 id, $2 attempt number, $3 status, $4 next attempt, $5 error (null: keep the last one), $6 sent at.
const RECORD = statement(
  "mail_record",
  `UPDATE email_outbox
      SET status = $3, next_attempt_at = COALESCE($4::timestamptz, next_attempt_at), locked_until = NULL,
          last_error = COALESCE($5::text, last_error), sent_at = $6::timestamptz
    WHERE id = $1 AND status = 'sending' AND attempts = $2`,
);

// Milliseconds until the next pending mail is due or the next lease runs out (null: nothing to send).
const NEXT_DUE = statement(
  "mail_next_due",
  `SELECT (EXTRACT(EPOCH FROM (min(CASE WHEN status = 'pending' THEN next_attempt_at ELSE locked_until END) - now())) * 1000)::float8 AS ms
     FROM email_outbox WHERE status IN ('pending', 'sending')`,
);

export function claimDueMails(limit: number): Promise<ClaimedMail[]> {
  return sql().rows<ClaimedMail>(CLAIM, [limit, leaseSeconds()]);
}

/** Seconds before the retry that follows failed attempt `attempt` (1-based), or null: give up. */
export function mailRetryDelaySeconds(attempt: number): number | null {
  if (attempt >= env.MAIL_MAX_ATTEMPTS) return null;
  return Math.min(env.MAIL_RETRY_BASE_SECONDS * 2 ** (attempt - 1), env.MAIL_RETRY_MAX_SECONDS);
}

/** Sends one claimed mail and records the outcome; never throws. True when it was sent. */
async function deliver(row: ClaimedMail): Promise<boolean> {
  let outcome: SendOutcome;
  if (row.attempts > env.MAIL_MAX_ATTEMPTS) {
    // Its last attempt's lease ran out (the sender stopped mid-send): no attempt beyond the maximum.
    outcome = { ok: false, permanent: true, error: `attempt ${row.attempts - 1} did not finish (the sender stopped mid-send)` };
  } else {
    const mail: OutgoingMail = { id: row.id, to: row.to, subject: row.subject, text: row.text_body, html: row.html_body, kind: row.kind };
    outcome = await sendMail(mail);
  }
  const now = new Date();
  let values: unknown[];
  if (outcome.ok) values = [row.id, row.attempts, "sent", null, null, now];
  else {
    const delay = outcome.permanent ? null : mailRetryDelaySeconds(row.attempts);
    const error = delay === null && !outcome.permanent ? `gave up after ${row.attempts} attempts: ${outcome.error}` : outcome.error;
    values = [
      row.id,
      row.attempts,
      delay === null ? "failed" : "pending",
      delay === null ? null : new Date(now.getTime() + delay * 1000),
      error,
      null,
    ];
  }
  try {
    await sql().count(RECORD, values);
  } catch (err) {
    logUnlessDatabaseDown(`mail ${row.id}: recording the outcome failed (its lease will run out and it is retried):`, err);
  }
  if (!outcome.ok) console.warn(`mail ${row.id} (${row.kind}) attempt ${row.attempts} failed: ${outcome.error}`);
  return outcome.ok;
}

/**
 * The cron tick's sender where nothing runs in the background: claims and sends MAIL_CONCURRENCY at a
 * time until nothing is due or `budgetMs` has passed (sends in flight then still finish). Mails sent.
 */
export async function runMailSenderOnce(budgetMs = 2_000): Promise<number> {
  if (!env.SMTP_URL) return 0;
  const deadline = Date.now() + budgetMs;
  let sent = 0;
  while (Date.now() < deadline) {
    const rows = await claimDueMails(env.MAIL_CONCURRENCY);
    if (rows.length === 0) break;
    sent += (await Promise.all(rows.map(deliver))).filter(Boolean).length;
  }
  return sent;
}

// ---- The long-running server's own loop --------------------------------------------------------------

/** This process's running loop, if it started one. */
const loop = globalSingleton("mail.background-sender", (): { current?: { wake: () => void } } => ({}));

/** Longest the loop sleeps without a look at the outbox (a backstop beside the notifications and the tick). */
const IDLE_CHECK_MS = 60_000;

export function backgroundMailSenderRunning(): boolean {
  return loop.current !== undefined;
}

export function wakeBackgroundMailSender(): boolean {
  loop.current?.wake();
  return loop.current !== undefined;
}

/** Starts this process's mail sender (idempotent); nothing without SMTP_URL. */
export function startBackgroundMailSender(): void {
  if (loop.current || !env.SMTP_URL) return;
  let inFlight = 0;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  const schedule = (delayMs: number) => {
    const at = Date.now() + Math.max(0, delayMs);
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = Infinity;
        void run();
      },
      Math.max(0, delayMs),
    );
    timer.unref();
  };
  const run = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        const room = env.MAIL_CONCURRENCY - inFlight;
        if (room <= 0) break; // a finished send wakes the loop
        const rows = await claimDueMails(room);
        for (const row of rows) {
          inFlight++;
          void deliver(row).finally(() => {
            inFlight--;
            schedule(0);
          });
        }
        if (rows.length === room) again = true;
      } while (again);
      // Sleep until the next retry or run-out lease (another process's too), or IDLE_CHECK_MS.
      const [next] = await sql().rows<{ ms: number | null }>(NEXT_DUE, []);
      schedule(next?.ms == null ? IDLE_CHECK_MS : Math.min(Math.max(next.ms + 5, 0), IDLE_CHECK_MS));
    } catch (err) {
      // Tried again in 5 s, or at once when the database is available again (the listener's reconnection wakes it).
      logUnlessDatabaseDown("mail sender:", err);
      schedule(5_000);
    } finally {
      running = false;
      if (again) schedule(0); // woken while it looked for the next due time
    }
  };
  // A burst of commits (a notification each) makes one round.
  loop.current = { wake: () => schedule(2) };
  schedule(0);
}
