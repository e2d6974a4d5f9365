// The SMTP side of mail delivery (nodemailer): the process's transport from SMTP_URL, the From address,
// a mail's stable Message-ID, and what a failure means (retry or give up) told without credentials.
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

/** What the sender needs of an outbox row to send it. */
export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  kind: string;
}

export type SendOutcome = { ok: true } | { ok: false; permanent: boolean; error: string };

/** The transport made for the SMTP_URL it was made for (made again when the setting changes, as tests do). */
const made = () => globalSingleton("mail.transport", (): { current?: { url: string; transport: Transporter } } => ({}));

/** The transport of SMTP_URL (one per process; each send opens its own connection), or null when unset. */
export function mailTransport(): Transporter | null {
  const url = env.SMTP_URL;
  if (!url) return null;
  const slot = made();
  if (slot.current?.url !== url) {
    slot.current = {
      url,
      transport: nodemailer.createTransport({
        // smtp:// upgrades with STARTTLS when the server offers it; smtps:// is TLS from the start; query
        // options as nodemailer reads them (e.g. ?tls.rejectUnauthorized=false for a private relay).
        ...parseConnectionUrl(url),
        connectionTimeout: env.MAIL_TIMEOUT_MS,
        greetingTimeout: env.MAIL_TIMEOUT_MS,
        socketTimeout: env.MAIL_TIMEOUT_MS,
        logger: false,
        debug: false,
      }),
    };
  }
  return slot.current.transport;
}

/** MAIL_FROM, else the service's name at no-reply@ the host of BASE_URL. */
export function mailFrom(): string {
  return env.MAIL_FROM ?? `Agent Payments Service <no-reply@${new URL(env.BASE_URL).hostname}>`;
}

/** The domain of the From address: the right-hand side of every Message-ID. */
function fromDomain(): string {
  const from = mailFrom();
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  return address.split("@").pop()?.trim() || "localhost";
}

/** The same for every attempt at one row, so that a receiver can drop a second copy. */
export function messageIdOf(id: string): string {
  return `<${id}@${fromDomain()}>`;
}

/** The credentials of SMTP_URL, as written and decoded: never part of a stored or logged error. */
function secretsOfUrl(url: string): string[] {
  const match = /^smtps?:\/\/([^@/?#]*)@/i.exec(url);
  if (!match) return [];
  const parts = [match[1], ...match[1].split(":")];
  return [...new Set(parts.flatMap((p) => [p, safeDecode(p)]))].filter((p) => p.length >= 3);
}
const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** An error message fit to store and show: any URL's credentials and SMTP_URL's user and password cut out, bounded. */
export function redactError(message: string, url = env.SMTP_URL ?? ""): string {
  let text = message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@/\s]*@/gi, "$1***@");
  for (const secret of secretsOfUrl(url).sort((a, b) => b.length - a.length)) text = text.split(secret).join("***");
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
}

/**
 * Permanent: an SMTP 5xx reply about this message (unknown mailbox, refused content, ...): sending it
 * again would get the same answer. Everything else is temporary: 4xx replies, connection errors and
 * time-outs, and a refused login (535 is 5xx, but it is the deployment's credentials, not this mail,
 * that are wrong: retried while the operator fixes SMTP_URL).
 */
export function classifySendError(err: unknown): { permanent: boolean; error: string } {
  const e = (err ?? {}) as SmtpError;
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  const permanent = code !== null && code >= 500 && code < 600 && e.code !== "EAUTH";
  const message = e.message ?? String(err);
  return { permanent, error: redactError(e.code && !message.includes(e.code) ? `${e.code}: ${message}` : message) };
}

/** Sends one mail; never throws. A send that takes longer than MAIL_TIMEOUT_MS in all is a temporary failure. */
export async function sendMail(mail: OutgoingMail): Promise<SendOutcome> {
  const transport = mailTransport();
  if (!transport) return { ok: false, permanent: false, error: "no SMTP transport configured (SMTP_URL is unset)" };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.sendMail({
        from: mailFrom(),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        messageId: messageIdOf(mail.id),
        headers: { "Auto-Submitted": "auto-generated", "X-APS-Mail-Kind": mail.kind },
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`timed out after ${env.MAIL_TIMEOUT_MS} ms`), { code: "ETIMEDOUT" })),
          env.MAIL_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, ...classifySendError(err) };
  } finally {
    clearTimeout(timer);
  }
}
