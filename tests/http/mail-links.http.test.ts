// Mail over SMTP, end to end (docs/dashboard.md "Email links", docs/operations.md "Mail"): a real SMTP
// server receives what the server sends; the test parses each mail and follows its links the way a person
// would: sign up -> the mailed confirmation link -> sign in; forgot password -> the mailed reset link ->
// sign in with the new password. Each mail has a text and an HTML part with the same links, the From of
// MAIL_FROM, a Message-ID made from its outbox id, and says what to ignore. No cron tick runs: the commit
// that queued a mail wakes the sender.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountCall, authCallback, signInOverHttp, uniqueEmail } from "../helpers/dashboard";
import { startMailTestServer, TEST_MAIL_FROM, type MailTestServer } from "../helpers/mail-server";
import type { ReceivedMail } from "../helpers/smtp";

let mail: MailTestServer;

beforeAll(async () => {
  mail = await startMailTestServer("links");
});
afterAll(async () => {
  await mail?.stop();
});

/** The one link of the mail to `path` (e.g. /confirm-email), in both parts. */
function linkTo(received: ReceivedMail, path: string): URL {
  const links = received.links.map((link) => new URL(link)).filter((url) => url.pathname === path);
  expect(links, `${path} in ${received.links.join(" ")}`).toHaveLength(1);
  expect(received.html).toContain(`href="${links[0].href.replace(/&/g, "&amp;")}"`);
  expect(received.text).toContain(links[0].href);
  return links[0];
}

/** GETs a mailed link (the page a person lands on) and returns its token. */
async function openLink(url: URL): Promise<string> {
  expect(url.origin).toBe(mail.url);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  return url.searchParams.get("token")!;
}

function expectWellFormed(received: ReceivedMail) {
  expect(received.headers.from).toBe(TEST_MAIL_FROM);
  expect(received.messageId).toMatch(/^<mail_[0-9A-Za-z]+@mail\.example\.test>$/);
  expect(received.headers["auto-submitted"]).toBe("auto-generated");
  expect(received.html).toMatch(/^<!doctype html>/i);
  // Says what to ignore when the reader did not ask for it.
  expect(received.text).toMatch(/ignore this mail/i);
}

describe("mail over SMTP: the links work", () => {
  it("sign up -> the confirmation mail arrives over SMTP (no tick) -> its link confirms -> sign in", async () => {
    const email = uniqueEmail();
    const password = `pw-${randomBytes(8).toString("hex")}`;
    const before = Date.now();
    const signUp = await authCallback("signup", { name: "Mail test merchant", email, password }, mail.url);
    expect(signUp.error).toBe("CHECK_EMAIL");
    const answered = Date.now();
    // Not confirmed yet: no way in.
    expect((await authCallback("signin", { email, password }, mail.url)).cookie).toBeNull();

    const confirmation = await mail.smtp.waitForMail({ to: email, since: before }, 10_000);
    console.log(
      `sign-up request sent -> mail received over SMTP: ${confirmation.receivedAt - before} ms (${confirmation.receivedAt - answered} ms after its answer)`,
    );
    expectWellFormed(confirmation);
    expect(confirmation.subject).toMatch(/confirm/i);
    const token = await openLink(linkTo(confirmation, "/confirm-email"));
    const confirmed = await accountCall("confirm-email", { token, password }, mail.url);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

    const session = await signInOverHttp(email, password, mail.url);
    expect(session.cookie).toContain("next-auth.session-token=");
    // Exactly one mail went to the address, and the outbox says it was sent, once.
    expect(mail.smtp.mails({ to: email })).toHaveLength(1);
    const rows = await mail.database.db.emailOutbox.findMany({ where: { to: email } });
    expect(rows.map((r) => [r.status, r.attempts, r.lastError])).toEqual([["sent", 1, null]]);
    expect(confirmation.messageId).toBe(`<${rows[0].id}@mail.example.test>`);
  });

  it("forgot password -> the reset mail's link sets a new password -> the new one signs in, the old one no longer", async () => {
    const email = uniqueEmail();
    const oldPassword = `old-${randomBytes(8).toString("hex")}`;
    const newPassword = `new-${randomBytes(8).toString("hex")}`;
    const start = Date.now();
    expect((await authCallback("signup", { name: "Reset merchant", email, password: oldPassword }, mail.url)).error).toBe("CHECK_EMAIL");
    const confirmation = await mail.smtp.waitForMail({ to: email, since: start });
    expect(
      (
        await accountCall(
          "confirm-email",
          { token: await openLink(linkTo(confirmation, "/confirm-email")), password: oldPassword },
          mail.url,
        )
      ).status,
    ).toBe(200);

    const asked = Date.now();
    expect((await accountCall("forgot-password", { email }, mail.url)).status).toBe(202);
    const reset = await mail.smtp.waitForMail({ to: email, since: asked });
    console.log(`forgot-password request sent -> reset mail received over SMTP: ${reset.receivedAt - asked} ms`);
    expectWellFormed(reset);
    expect(reset.subject).toMatch(/reset/i);
    const token = await openLink(linkTo(reset, "/reset-password"));
    const done = await accountCall("reset-password", { token, password: newPassword }, mail.url);
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    expect((await signInOverHttp(email, newPassword, mail.url)).cookie).toContain("next-auth.session-token=");
    expect((await authCallback("signin", { email, password: oldPassword }, mail.url)).cookie).toBeNull();
    // The link works once.
    expect((await accountCall("reset-password", { token, password: `again-${newPassword}` }, mail.url)).status).toBe(400);
  });

  it("a sign-up with a confirmed account's email mails its owner, with links to sign in and to reset", async () => {
    const email = uniqueEmail();
    const password = `pw-${randomBytes(8).toString("hex")}`;
    const start = Date.now();
    await authCallback("signup", { name: "Owner", email, password }, mail.url);
    const confirmation = await mail.smtp.waitForMail({ to: email, since: start });
    expect(
      (await accountCall("confirm-email", { token: await openLink(linkTo(confirmation, "/confirm-email")), password }, mail.url)).status,
    ).toBe(200);

    const again = Date.now();
    expect((await authCallback("signup", { name: "Someone else", email, password: "another-password-1" }, mail.url)).error).toBe(
      "CHECK_EMAIL",
    );
    const notice = await mail.smtp.waitForMail({ to: email, since: again });
    expectWellFormed(notice);
    expect(linkTo(notice, "/login").origin).toBe(mail.url);
    expect(linkTo(notice, "/forgot-password").origin).toBe(mail.url);
    expect(notice.links.some((link) => link.includes("token="))).toBe(false);
  });

  it("the HTML part is the text, escaped, with its links clickable", async () => {
    const email = uniqueEmail();
    const start = Date.now();
    await authCallback("signup", { name: "HTML merchant", email, password: "long-enough-password" }, mail.url);
    const received = await mail.smtp.waitForMail({ to: email, since: start });
    const link = linkTo(received, "/confirm-email");
    expect(received.html).toContain(`<a href="${link.href}"`);
    expect(received.html).not.toMatch(/<script|<b>/i);
    // Every paragraph of the text is in the HTML part.
    for (const paragraph of received.text.split(/\n{2,}/).map((p) => p.trim().split("\n")[0]))
      if (!paragraph.startsWith("http")) expect(received.html).toContain(paragraph.replace(/&/g, "&amp;").replace(/'/g, "&#39;"));
  });
});
