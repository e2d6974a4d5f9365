// Mail the service sends: rows of email_outbox, written in the same transaction as the change they tell
// about (a sign-up and its confirmation mail commit together or not at all). The outbox is the record of
// every mail; with SMTP_URL set the mail sender (sender.ts, transport.ts) delivers each row over SMTP,
// woken by the row's commit, and keeps its delivery status on the row (pending -> sending -> sent, retried
// with back-off, or failed with its error). Without SMTP_URL a row is queued as `no_transport`: nothing
// leaves, and the dev mail viewer (app/dev/mail, devMailViewerEnabled) is the only place it can be read.
// A mail is plain text; its HTML part is rendered from the text (html-body.ts) unless the caller gives one.
import type { Db } from "../db";
import { getDb, sql, statement } from "../db";
import { env } from "../env";
import { createId } from "../ids";
import { htmlFromText } from "./html-body";

/** Free-form (new kinds need no change here); the ones the service sends today come first. */
export type MailKind = "confirm_email" | "signup_existing_account" | "reset_password" | (string & {});

/** pending / sending / sent / failed, or no_transport: queued where no SMTP transport was configured. */
export type MailStatus = "pending" | "sending" | "sent" | "failed" | "no_transport";

export interface Mail {
  to: string;
  /** Short snake_case name of what the mail is (the viewer and the X-APS-Mail-Kind header show it). */
  kind: MailKind;
  subject: string;
  text: string;
  /** The HTML part; unset: rendered from `text` (escaped, links clickable). */
  html?: string;
}

export async function queueMail(tx: Db, mail: Mail): Promise<void> {
  await tx.emailOutbox.create({
    data: {
      id: createId("email"),
      to: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? htmlFromText(mail.text, mail.subject),
      kind: mail.kind,
      status: env.SMTP_URL ? "pending" : "no_transport",
    },
  });
}

/** The dev mail viewer is on outside production, or in production when DEV_MAIL_VIEWER=1 (the e2e server). */
export function devMailViewerEnabled(): boolean {
  return env.NODE_ENV !== "production" || env.DEV_MAIL_VIEWER === "1";
}

/** The newest mails, optionally to one address (for the dev mail viewer), with their delivery status. */
export function recentMails(to: string | null, limit = 50) {
  return getDb().emailOutbox.findMany({ where: to ? { to } : {}, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}

/** Rows one purge deletes at most (the tick runs again; a backlog goes down over a few ticks). */
export const PURGE_BATCH = 5_000;

// Delivered, given-up and never-to-be-sent mails go after a week. A mail still to send is kept while it
// may be retried (its attempts end within hours) and for a month in all, should no sender ever run.
const PURGE = statement(
  "mail_purge",
  `DELETE FROM email_outbox WHERE id IN (
     SELECT id FROM email_outbox
      WHERE created_at < $1::timestamptz AND (status IN ('sent', 'failed', 'no_transport') OR created_at < $2::timestamptz)
      ORDER BY created_at LIMIT $3)`,
);

/** Deletes old mails (the tick calls this), at most PURGE_BATCH a call; how many it deleted. */
export function purgeOldMails(now = new Date()): Promise<number> {
  const day = 24 * 3600_000;
  return sql().count(PURGE, [new Date(now.getTime() - 7 * day), new Date(now.getTime() - 30 * day), PURGE_BATCH]);
}
