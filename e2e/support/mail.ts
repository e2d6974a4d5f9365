// Mail in the e2e specs, as a person gets it: from the SMTP sink the e2e server sends to
// (e2e/support/smtp-sink.ts, started by playwright.config.ts), not from the dev mail viewer. The server's
// background mail sender sends each mail as soon as the transaction that queued it commits (NOTIFY
// aps_mail), so a mail usually arrives within a second of the click that caused it; these helpers poll.
import { mailMatches, type MailMatch, type ReceivedMail } from "../../tests/helpers/smtp";

export type { ReceivedMail } from "../../tests/helpers/smtp";

/** The sink's HTTP address (playwright.config.ts sets E2E_SMTP_SINK_URL for the runner and its workers). */
export function smtpSinkUrl(): string {
  return process.env.E2E_SMTP_SINK_URL ?? `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3456) + 2}`;
}

/** Every mail the sink received to the address, oldest first. */
export async function mailsTo(to: string): Promise<ReceivedMail[]> {
  const res = await fetch(`${smtpSinkUrl()}/mails?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`SMTP sink: ${res.status}`);
  return (await res.json()) as ReceivedMail[];
}

/**
 * The newest mail to the address (optionally of a kind, e.g. "confirm_email", "invitation", or with a
 * subject, or received since a time), waiting up to `timeoutMs` for one to arrive. It has `subject`,
 * `text`, `html`, `links` (every http(s) link), `headers` and `kind`.
 */
export async function newestMail(to: string, match: Omit<MailMatch, "to"> = {}, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(to)).filter((mail) => mailMatches(mail, { ...match, to }));
    if (found.length) return found[found.length - 1];
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${JSON.stringify(match)} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first link of the newest matching mail that contains `contains` (default: a link with a token). */
export async function mailedLink(to: string, match: Omit<MailMatch, "to"> = {}, contains = "token="): Promise<string> {
  const mail = await newestMail(to, match);
  const link = mail.links.find((l) => l.includes(contains));
  if (!link) throw new Error(`the newest mail to ${to} (${mail.subject}) has no link containing ${contains}: ${mail.links.join(" ")}`);
  return link;
}
