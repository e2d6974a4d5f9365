// A real SMTP server for tests (the `smtp-server` package) on a free local port: every message it accepts is
// parsed with `mailparser` and kept, with its links. A test points a server at it with
// `startTestServer({ SMTP_URL: smtp.url })` and waits for a mail with `smtp.waitForMail({ to, kind })`.
// `refuse()` makes it answer RCPT TO with an SMTP error (421/450: temporary; 550: permanent) a number of
// times, so that retries and give-ups can be seen. The Playwright SMTP sink (e2e/support/smtp-sink.ts) is the
// same server behind a tiny HTTP endpoint.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML part ("" when there is none). */
  html: string;
  /** Every distinct http(s) link, from the HTML part's hrefs and the text part's URLs, in order. */
  links: string[];
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  messageId: string;
  /** The service's X-APS-Mail-Kind header (confirm_email, reset_password, ...), or null. */
  kind: string | null;
  receivedAt: number;
}

export interface MailMatch {
  to?: string;
  kind?: string;
  subject?: string | RegExp;
  /** Only mails received at or after this time (Date.now() milliseconds). */
  since?: number;
  /** Only mails whose text part contains this (e.g. what names one request, when earlier ones may still arrive). */
  containing?: string;
}

export interface Refusal {
  /** An SMTP reply code: 4xx temporary (421, 450, 451, 452), 5xx permanent (550, 552, 553, 554). */
  code: number;
  message?: string;
  /** How many RCPT TO commands to refuse (default: every one from now on). */
  times?: number;
  /** Only this recipient (default: any). */
  to?: string;
}

export interface TestSmtp {
  /** smtp://user:password@127.0.0.1:port: the value of SMTP_URL for a server that sends here. */
  url: string;
  port: number;
  /** Every accepted mail, oldest first. */
  received: ReceivedMail[];
  /** RCPT TO commands answered with an error, oldest first. */
  refused: { to: string; code: number; at: number }[];
  /** Answer RCPT TO with an error from now on (the newest rule that still applies wins). */
  refuse(refusal: Refusal): void;
  /** Accept everything again. */
  acceptAll(): void;
  /** Accepted mails that match, oldest first. */
  mails(match?: MailMatch): ReceivedMail[];
  /** Resolves with the newest matching mail once there is one (rejects after `timeoutMs`). */
  waitForMail(match?: MailMatch, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `count` mails match (all of them, oldest first). */
  waitForMails(count: number, match?: MailMatch, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const URLS = /https?:\/\/[^\s<>"'`]+/g;
const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);

/** Links of a mail: the HTML part's hrefs, then URLs of the text part, each once. */
export function linksOf(text: string, html: string): string[] {
  const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeEntities(m[1]));
  const urls = [...text.matchAll(URLS)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ""));
  return [...new Set([...hrefs, ...urls].filter((link) => /^https?:\/\//.test(link)))];
}

export function mailMatches(mail: ReceivedMail, match: MailMatch = {}): boolean {
  if (match.to && !mail.to.includes(match.to.toLowerCase())) return false;
  if (match.kind && mail.kind !== match.kind) return false;
  if (match.since !== undefined && mail.receivedAt < match.since) return false;
  if (match.containing !== undefined && !mail.text.includes(match.containing)) return false;
  if (match.subject instanceof RegExp ? !match.subject.test(mail.subject) : match.subject && mail.subject !== match.subject) return false;
  return true;
}

export interface TestSmtpOptions {
  /** The credentials it accepts (AUTH is optional: a client without credentials is accepted too). */
  user?: string;
  password?: string;
  /** Default: a free port on 127.0.0.1. */
  port?: number;
  host?: string;
  /** Milliseconds it takes before accepting each message (to make sends overlap). */
  acceptDelayMs?: number;
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const user = options.user ?? "mailer";
  const password = options.password ?? "smtp-test-password";
  const rules: (Refusal & { times: number })[] = [];
  const received: ReceivedMail[] = [];
  const refused: TestSmtp["refused"] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered (its self-signed certificate would be refused), AUTH allowed.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username !== user || auth.password !== password) return callback(new Error("Invalid username or password"));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const rule = [...rules].reverse().find((r) => r.times > 0 && (!r.to || r.to === to));
      if (!rule) return callback();
      rule.times--;
      refused.push({ to, code: rule.code, at: Date.now() });
      callback(
        Object.assign(new Error(rule.message ?? (rule.code < 500 ? "Try again later" : "Mailbox unavailable")), {
          responseCode: rule.code,
        }),
      );
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers: Record<string, string> = {};
          for (const { key, line } of parsed.headerLines) {
            const value = line
              .slice(line.indexOf(":") + 1)
              .replace(/\r?\n[ \t]+/g, " ")
              .trim();
            headers[key] = headers[key] ? `${headers[key]}, ${value}` : value;
          }
          const text = parsed.text ?? "";
          const html = parsed.html || "";
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text,
            html,
            links: linksOf(text, html),
            headers,
            messageId: parsed.messageId ?? "",
            kind: headers["x-aps-mail-kind"] ?? null,
            receivedAt: Date.now(),
          });
          if (options.acceptDelayMs) setTimeout(callback, options.acceptDelayMs);
          else callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  server.on("error", () => {}); // a client that drops mid-command is no test failure
  const port = (server.server.address() as AddressInfo).port;
  const mails = (match?: MailMatch) => received.filter((mail) => mailMatches(mail, match));
  const waitForMails = async (count: number, match?: MailMatch, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline)
        throw new Error(
          `SMTP: ${found.length} of ${count} mails matching ${JSON.stringify(match ?? {})} in ${timeoutMs} ms (${received.length} received)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    received,
    refused,
    refuse: (refusal) => void rules.push({ ...refusal, times: refusal.times ?? Infinity }),
    acceptAll: () => void rules.splice(0),
    mails,
    waitForMails,
    waitForMail: async (match, timeoutMs) => (await waitForMails(1, match, timeoutMs)).at(-1)!,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
