// The pure parts of mail delivery (lib/mail): the HTML part rendered from the text, what an SMTP failure
// means, errors cut free of credentials, the retry schedule, the production warning. The delivery itself is
// tested against a real SMTP server (tests/http/mail-*.http.test.ts).
import { describe, expect, it } from "vitest";
import { htmlFromText } from "../../lib/mail/html-body";
import { mailRetryDelaySeconds } from "../../lib/mail/sender";
import { classifySendError, messageIdOf, redactError } from "../../lib/mail/transport";
import { missingTransportWarning } from "../../lib/mail/transport-warning";
import { linksOf } from "../helpers/smtp";

describe("htmlFromText", () => {
  it("escapes everything, makes each http(s) URL a link (without the sentence's closing punctuation), keeps paragraphs and lines", () => {
    const html = htmlFromText(
      'Hello <b>"you"</b> & co.\nSecond line.\n\nOpen https://pay.example.com/confirm-email?token=a_b-c&x=1. Or (https://pay.example.com/login).\n\n\nBye',
      "Subject <x>",
    );
    expect(html).toContain("<title>Subject &lt;x&gt;</title>");
    expect(html).toContain("Hello &lt;b&gt;&quot;you&quot;&lt;/b&gt; &amp; co.<br>Second line.");
    expect(html).toContain(
      '<a href="https://pay.example.com/confirm-email?token=a_b-c&amp;x=1" style="color:#4338ca">https://pay.example.com/confirm-email?token=a_b-c&amp;x=1</a>.',
    );
    expect(html).toContain(">https://pay.example.com/login</a>).");
    expect(html.match(/<p /g)).toHaveLength(3);
    expect(html).not.toMatch(/<b>|<script/);
    // What a mail client reads back is the text's links.
    expect(linksOf("", html)).toEqual(["https://pay.example.com/confirm-email?token=a_b-c&x=1", "https://pay.example.com/login"]);
  });

  it("never turns other schemes into links", () => {
    const html = htmlFromText("javascript:alert(1) data:text/html,<p>x</p> ftp://x", "t");
    expect(html).not.toContain("<a ");
  });
});

describe("classifySendError", () => {
  it("5xx about the message is permanent; 4xx, connection errors, time-outs and a refused login are temporary", () => {
    expect(
      classifySendError({
        code: "EENVELOPE",
        responseCode: 550,
        message: "Can't send mail - all recipients were rejected: 550 No such user",
      }),
    ).toEqual({
      permanent: true,
      error: "EENVELOPE: Can't send mail - all recipients were rejected: 550 No such user",
    });
    expect(classifySendError({ code: "EMESSAGE", responseCode: 554, message: "Message failed: 554 spam" }).permanent).toBe(true);
    expect(classifySendError({ code: "EENVELOPE", responseCode: 450, message: "450 busy" }).permanent).toBe(false);
    expect(classifySendError({ code: "ECONNECTION", message: "connect ECONNREFUSED 127.0.0.1:25" }).permanent).toBe(false);
    expect(classifySendError({ code: "ETIMEDOUT", message: "Greeting never received" }).permanent).toBe(false);
    expect(classifySendError({ code: "EAUTH", responseCode: 535, message: "Invalid login: 535 Authentication failed" }).permanent).toBe(
      false,
    );
    expect(classifySendError(new Error("boom")).permanent).toBe(false);
  });
});

describe("redactError", () => {
  it("cuts SMTP_URL's user and password (as written and decoded) and any URL's credentials out, and bounds the length", () => {
    const url = "smtps://apikey:p%40ss%3Aword-123@smtp.example.com:465";
    const message =
      "Invalid login for apikey with p@ss:word-123 (p%40ss%3Aword-123) at smtps://apikey:p%40ss%3Aword-123@smtp.example.com:465";
    const redacted = redactError(message, url);
    expect(redacted).not.toMatch(/apikey|p@ss|p%40ss|word-123/);
    expect(redacted).toContain("smtps://***@smtp.example.com:465");
    expect(redactError("x".repeat(2_000), url)).toHaveLength(500);
    expect(redactError("line one\r\n  line two", url)).toBe("line one line two");
  });
});

describe("retries", () => {
  it("wait MAIL_RETRY_BASE_SECONDS, doubling, at most MAIL_RETRY_MAX_SECONDS; none after MAIL_MAX_ATTEMPTS (defaults 60, 3600, 8)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(mailRetryDelaySeconds)).toEqual([60, 120, 240, 480, 960, 1920, 3600, null]);
  });

  it("a Message-ID is the row's id at the From address's domain, the same for every attempt", () => {
    expect(messageIdOf("mail_abc")).toBe(messageIdOf("mail_abc"));
    expect(messageIdOf("mail_abc")).toMatch(/^<mail_abc@[^@>]+>$/);
  });
});

describe("missingTransportWarning", () => {
  it("warns only for a production server without SMTP_URL", () => {
    expect(missingTransportWarning({ NODE_ENV: "production", SMTP_URL: undefined })).toMatch(
      /^WARNING: SMTP_URL is not set, so this server sends no mail: sign-up confirmation, password reset and invitation mails cannot reach anyone/,
    );
    expect(missingTransportWarning({ NODE_ENV: "production", SMTP_URL: "smtp://relay:587" })).toBeNull();
    expect(missingTransportWarning({ NODE_ENV: "development", SMTP_URL: undefined })).toBeNull();
    expect(missingTransportWarning({ NODE_ENV: "test", SMTP_URL: undefined })).toBeNull();
  });
});
