// Delivery of the mail outbox over SMTP (lib/mail/sender.ts, docs/operations.md "Mail"), against a real
// SMTP server and real server processes on a database of this file's own: an SMTP 4xx is retried with
// back-off and the mail arrives exactly once with its attempts recorded; a 5xx is given up at once and
// shown as failed with its error (in the outbox and the dev mail viewer); temporary failures end after
// MAIL_MAX_ATTEMPTS; two server processes sending from one outbox deliver each of many mails exactly once;
// a server without SMTP_URL sends nothing (its rows stay as the record, listed by the viewer) and says so
// at start; a refused login's error never shows the credentials.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { authCallback, uniqueEmail } from "../helpers/dashboard";
import { startMailTestServer, type MailTestServer } from "../helpers/mail-server";
import { tick } from "../helpers/payments";
import { missingTransportWarning } from "../../lib/mail/transport-warning";

let mail: MailTestServer;
let second: ServerProcess;

beforeAll(async () => {
  // Sends overlap (each message takes the SMTP server 20 ms to accept), two at a time per process.
  mail = await startMailTestServer("delivery", { MAIL_MAX_ATTEMPTS: "3", MAIL_CONCURRENCY: "2" }, { acceptDelayMs: 20 });
});
afterAll(async () => {
  await mail?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signUp(email: string, base = mail.url) {
  const result = await authCallback("signup", { name: "Delivery merchant", email, password: `pw-${randomBytes(8).toString("hex")}` }, base);
  expect(result.error).toBe("CHECK_EMAIL");
}

const rowsTo = (to: string) => mail.database.db.emailOutbox.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

type OutboxRow = Awaited<ReturnType<typeof rowsTo>>[number];

async function waitForRow(to: string, done: (row: OutboxRow) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await rowsTo(to);
    if (row && done(row)) return row;
    if (Date.now() > deadline) throw new Error(`outbox row to ${to}: ${JSON.stringify(row)}`);
    await sleep(100);
  }
}

/** The dev mail viewer's entry for the address: status, attempts, error. */
async function viewerEntry(to: string, base = mail.url) {
  const res = await fetch(`${base}/dev/mail?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  const part = (await res.text()).split('data-testid="mail"')[1] ?? "";
  const text = (testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(part)?.[1] ?? null;
  return { status: /data-status="([^"]+)"/.exec(part)?.[1] ?? null, attempts: text("mail-attempts"), error: text("mail-error") };
}

describe("retries and give-ups", () => {
  it("an SMTP 450 then acceptance: the mail arrives exactly once, after a retry; the outbox records 2 attempts and the 450", async () => {
    const email = uniqueEmail();
    mail.smtp.refuse({ code: 450, message: "Mailbox busy, try again", times: 1, to: email });
    await signUp(email);
    const received = await mail.smtp.waitForMail({ to: email });
    expect(mail.smtp.refused.filter((r) => r.to === email).map((r) => r.code)).toEqual([450]);
    const row = await waitForRow(email, (r) => r.status === "sent");
    expect(row.attempts).toBe(2);
    expect(row.lastError).toMatch(/450 Mailbox busy, try again/);
    expect(row.sentAt).not.toBeNull();
    // The retry waited MAIL_RETRY_BASE_SECONDS (1 s) after the refusal.
    const refusedAt = mail.smtp.refused.find((r) => r.to === email)!.at;
    expect(received.receivedAt - refusedAt).toBeGreaterThanOrEqual(900);
    // No second copy, even after a tick.
    await tick(mail.url);
    await sleep(1_500);
    expect(mail.smtp.mails({ to: email })).toHaveLength(1);
    expect(await viewerEntry(email)).toMatchObject({ status: "sent", attempts: "2" });
  });

  it("an SMTP 550 is permanent: given up after one attempt, failed with its error in the outbox and the viewer", async () => {
    const email = uniqueEmail();
    mail.smtp.refuse({ code: 550, message: "No such user here", to: email });
    await signUp(email);
    const row = await waitForRow(email, (r) => r.status === "failed");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/550 No such user here/);
    expect(row.sentAt).toBeNull();
    await tick(mail.url);
    await sleep(1_500);
    expect(mail.smtp.refused.filter((r) => r.to === email)).toHaveLength(1);
    expect(mail.smtp.mails({ to: email })).toHaveLength(0);
    const entry = await viewerEntry(email);
    expect(entry).toMatchObject({ status: "failed", attempts: "1" });
    expect(entry.error).toMatch(/550 No such user here/);
  });

  it("temporary failures end after MAIL_MAX_ATTEMPTS (3): failed, 'gave up after 3 attempts'", async () => {
    const email = uniqueEmail();
    mail.smtp.refuse({ code: 421, message: "Service not available", to: email });
    await signUp(email);
    const row = await waitForRow(email, (r) => r.status === "failed", 20_000);
    expect(row.attempts).toBe(3);
    expect(row.lastError).toMatch(/^gave up after 3 attempts: .*421 Service not available/);
    expect(mail.smtp.refused.filter((r) => r.to === email)).toHaveLength(3);
    expect(mail.smtp.mails({ to: email })).toHaveLength(0);
  });
});

describe("two server processes", () => {
  beforeAll(async () => {
    second = await mail.startAnother();
  });

  it("both send from one outbox: each of 150 mails is received exactly once", async () => {
    const tag = randomBytes(4).toString("hex");
    const to = (i: number) => `bulk-${tag}-${i}@example.com`;
    // Queued in three transactions (each commit wakes both processes), as a burst of sign-ups would.
    const ids: string[] = [];
    for (let batch = 0; batch < 3; batch++) {
      const rows = Array.from({ length: 50 }, (_, j) => {
        const i = batch * 50 + j;
        const id = `email_bulk${tag}${String(i).padStart(4, "0")}`;
        ids.push(id);
        return { id, to: to(i), subject: `Bulk ${i}`, textBody: `Mail number ${i}.`, kind: "bulk_test", status: "pending" };
      });
      await mail.database.db.emailOutbox.createMany({ data: rows });
    }
    // Requests through both processes queue mails too.
    const viaHttp = [uniqueEmail(), uniqueEmail()];
    await Promise.all([signUp(viaHttp[0], mail.url), signUp(viaHttp[1], second.url)]);

    await mail.smtp.waitForMails(150, { kind: "bulk_test" }, 30_000);
    for (const email of viaHttp) await mail.smtp.waitForMail({ to: email });
    await tick(mail.url);
    await tick(second.url);
    await sleep(2_000);
    const received = mail.smtp.mails({ kind: "bulk_test" });
    expect(received).toHaveLength(150);
    expect(new Set(received.map((m) => m.messageId)).size).toBe(150);
    expect(new Set(received.map((m) => m.messageId))).toEqual(new Set(ids.map((id) => `<${id}@mail.example.test>`)));
    for (let i = 0; i < 150; i++)
      expect(
        received.filter((m) => m.to.includes(to(i))),
        to(i),
      ).toHaveLength(1);
    for (const email of viaHttp) expect(mail.smtp.mails({ to: email })).toHaveLength(1);
    const rows = await mail.database.db.emailOutbox.findMany({ where: { kind: "bulk_test" } });
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });
});

describe("without SMTP_URL", () => {
  let plain: ServerProcess;
  beforeAll(async () => {
    plain = await mail.startAnother({ SMTP_URL: "" });
  });

  it("nothing is sent (not even by a process that could): the row stays no_transport, the viewer lists it", async () => {
    const email = uniqueEmail();
    await signUp(email, plain.url);
    const [row] = await rowsTo(email);
    expect(row).toMatchObject({ status: "no_transport", attempts: 0, sentAt: null, kind: "confirm_email" });
    // The sending processes leave it alone, woken or ticked.
    await tick(mail.url);
    await tick(plain.url);
    await sleep(1_500);
    expect(mail.smtp.mails({ to: email })).toHaveLength(0);
    expect((await rowsTo(email))[0]).toMatchObject({ status: "no_transport", attempts: 0 });
    // Listed by the viewer (with its link), on either server.
    for (const base of [plain.url, mail.url]) {
      const res = await fetch(`${base}/dev/mail?to=${encodeURIComponent(email)}`);
      const html = await res.text();
      expect(html).toContain('data-kind="confirm_email"');
      expect(html).toContain('data-status="no_transport"');
      expect(html).toMatch(/href="[^"]*\/confirm-email\?token=/);
    }
  });

  it("a production start without SMTP_URL logs one clear warning; with it, none", async () => {
    const warning = missingTransportWarning({ NODE_ENV: "production", SMTP_URL: undefined })!;
    expect(warning).toMatch(/sign-up confirmation, password reset and invitation mails cannot reach anyone/);
    expect(plain.output().split(warning).length - 1).toBe(1);
    expect(mail.server.output()).not.toContain("SMTP_URL is not set");
  });
});

describe("headers", () => {
  it("a line break in a subject cannot add a header or a recipient", async () => {
    const tag = randomBytes(4).toString("hex");
    const to = `headers-${tag}@example.com`;
    await mail.database.db.emailOutbox.create({
      data: {
        id: `email_headers${tag}`,
        to,
        subject: `Hello\r\nBcc: thief-${tag}@example.com\r\nX-Injected: yes`,
        textBody: "Body.",
        kind: "header_test",
        status: "pending",
      },
    });
    const received = await mail.smtp.waitForMail({ to });
    expect(received.to).toEqual([to]);
    expect(received.headers["x-injected"]).toBeUndefined();
    expect(received.headers.bcc).toBeUndefined();
    expect(received.subject).toMatch(/^Hello\s+Bcc: thief-/);
    expect(mail.smtp.mails({ to: `thief-${tag}@example.com` })).toHaveLength(0);
  });
});

describe("the purge", () => {
  it("deletes delivered, failed and unsendable mails after a week, a mail still to send only after 30 days, 5,000 a tick", async () => {
    const tag = randomBytes(4).toString("hex");
    const insert = (name: string, status: string, daysOld: number) =>
      mail.database.db.$executeRawUnsafe(
        `INSERT INTO email_outbox (id, "to", subject, text_body, kind, status, created_at, next_attempt_at)
         VALUES ($1, $2, 'Old', 'Old mail.', 'purge_test', $3, now() - make_interval(days => $4), now() + interval '1 day')`,
        `email_${name}${tag}`,
        `${name}-${tag}@example.com`,
        status,
        daysOld,
      );
    await insert("oldsent", "sent", 8);
    await insert("oldfailed", "failed", 8);
    await insert("oldnotransport", "no_transport", 8);
    await insert("oldpending", "pending", 8);
    await insert("ancientpending", "pending", 31);
    await insert("recentsent", "sent", 6);
    await mail.database.db.$executeRawUnsafe(
      `INSERT INTO email_outbox (id, "to", subject, text_body, kind, status, created_at)
       SELECT 'email_bulkold' || $1 || i, 'bulk-old@example.com', 'Old', 'Old mail.', 'purge_bulk', 'sent', now() - interval '9 days'
         FROM generate_series(1, 5002) AS i`,
      tag,
    );
    const first = await tick(mail.url);
    expect(first.body.emailOutboxPurged).toBe(5_000);
    const second = await tick(mail.url);
    expect(second.body.emailOutboxPurged).toBe(6);
    expect((await tick(mail.url)).body.emailOutboxPurged).toBe(0);
    const left = await mail.database.db.emailOutbox.findMany({
      where: { kind: { in: ["purge_test", "purge_bulk"] } },
      select: { id: true },
    });
    expect(left.map((r) => r.id).sort()).toEqual([`email_oldpending${tag}`, `email_recentsent${tag}`]);
  });
});

describe("credentials", () => {
  it("a refused login is retried, and its error names neither the user nor the password", async () => {
    // The only sending process on the database now logs in with a wrong password.
    await Promise.all([mail.server.stop(), second.stop()]);
    const others = mail.smtp.url.replace(/^smtp:\/\/[^@]+@/, "");
    const secretPassword = `s3cret-${randomBytes(6).toString("hex")}`;
    const wrong = await mail.startAnother({ SMTP_URL: `smtp://mailer-${secretPassword.slice(0, 4)}x:${secretPassword}@${others}` });
    const email = uniqueEmail();
    await signUp(email, wrong.url);
    const row = await waitForRow(email, (r) => r.attempts >= 1 && r.status === "pending" && r.lastError !== null);
    expect(row.lastError).toMatch(/535|Invalid login|Invalid username or password/i);
    expect(row.lastError).not.toContain(secretPassword);
    expect(row.lastError).not.toContain(`mailer-${secretPassword.slice(0, 4)}x`);
    expect(wrong.output()).not.toContain(secretPassword);
    expect(mail.smtp.mails({ to: email })).toHaveLength(0);
  });
});
