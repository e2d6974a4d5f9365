// Mail the service sends: rows of email_outbox, written in the same transaction as the change they tell
// about (a sign-up and its confirmation mail commit together or not at all). There is no external mail
// service; the dev mail viewer (app/dev/mail, devMailViewerEnabled) lists them. A deployment that sends
// mail for real would deliver these rows from a worker, as webhooks are delivered from theirs.
import type { Db } from "../db";
import { getDb } from "../db";
import { env } from "../env";
import { createId } from "../ids";

export type MailKind = "confirm_email" | "signup_existing_account" | "reset_password";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
}

export async function queueMail(tx: Db, mail: Mail): Promise<void> {
  await tx.emailOutbox.create({
    data: { id: createId("email"), to: mail.to, subject: mail.subject, textBody: mail.text, kind: mail.kind },
  });
}

/** The dev mail viewer is on outside production, or in production when DEV_MAIL_VIEWER=1 (the e2e server). */
export function devMailViewerEnabled(): boolean {
  return env.NODE_ENV !== "production" || env.DEV_MAIL_VIEWER === "1";
}

/** The newest mails, optionally to one address (for the dev mail viewer). */
export function recentMails(to: string | null, limit = 50) {
  return getDb().emailOutbox.findMany({ where: to ? { to } : {}, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}

/** Deletes mails older than a week (the tick calls this). */
export async function purgeOldMails(now = new Date()): Promise<number> {
  const { count } = await getDb().emailOutbox.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - 7 * 24 * 3600_000) } } });
  return count;
}
