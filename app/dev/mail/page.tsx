// The dev mail viewer: the newest mails of email_outbox, whether or not they were also sent over SMTP, with
// their links clickable and their delivery (status, attempts, last error, sent time). Served only outside
// production, or with DEV_MAIL_VIEWER=1 (the e2e and test servers); otherwise it is the 404 page.
// ?to=address shows one recipient's mails. Tests read its markup: each mail is data-testid="mail" with
// data-kind (and data-status), its text's links come first (tests/helpers/dashboard.ts, e2e/support/dashboard.ts).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { env } from "@/lib/env";
import { devMailViewerEnabled, recentMails, type MailStatus } from "@/lib/mail/outbox";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dev mail viewer · Agent Payments Service", robots: { index: false }, referrer: "no-referrer" };

/** The body as text, with every http(s) URL a link. */
function Body({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="font-medium text-indigo-700 underline">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </p>
  );
}

const STATUS_TEXT: Record<MailStatus, string> = {
  pending: "Waiting to be sent",
  sending: "Being sent",
  sent: "Sent over SMTP",
  failed: "Not delivered (given up)",
  no_transport: "Not sent: no SMTP transport configured (SMTP_URL unset)",
};
const STATUS_STYLE: Record<MailStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  sending: "bg-sky-100 text-sky-900",
  sent: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
  no_transport: "bg-slate-100 text-slate-800",
};

function Delivery({ mail }: { mail: Awaited<ReturnType<typeof recentMails>>[number] }) {
  const status = (mail.status in STATUS_TEXT ? mail.status : "pending") as MailStatus;
  return (
    <dl
      className="mt-3 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 border-t border-slate-100 pt-3 text-xs text-slate-700"
      data-testid="mail-delivery"
    >
      <dt className="font-medium">Delivery</dt>
      <dd>
        <span className={`rounded px-1.5 py-0.5 font-medium ${STATUS_STYLE[status]}`} data-testid="mail-status">
          {mail.status}
        </span>{" "}
        {STATUS_TEXT[status]}
      </dd>
      <dt className="font-medium">Attempts</dt>
      <dd data-testid="mail-attempts">{mail.attempts}</dd>
      {mail.sentAt ? (
        <>
          <dt className="font-medium">Sent</dt>
          <dd>
            <time dateTime={mail.sentAt.toISOString()}>{mail.sentAt.toISOString()}</time>
          </dd>
        </>
      ) : null}
      {mail.status === "pending" && mail.attempts > 0 ? (
        <>
          <dt className="font-medium">Next attempt</dt>
          <dd>
            <time dateTime={mail.nextAttemptAt.toISOString()}>{mail.nextAttemptAt.toISOString()}</time>
          </dd>
        </>
      ) : null}
      {mail.lastError ? (
        <>
          <dt className="font-medium">{mail.status === "sent" ? "Earlier error" : "Last error"}</dt>
          <dd className="break-words font-mono" data-testid="mail-error">
            {mail.lastError}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

export default async function DevMailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (!devMailViewerEnabled()) notFound();
  const { to } = await searchParams;
  const recipient = typeof to === "string" && to.length <= 320 && !to.includes("\0") ? to.trim().toLowerCase() : null;
  const mails = await recentMails(recipient);
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-xl font-semibold text-slate-900">Dev mail viewer</h1>
      <p className="mt-1 text-sm text-slate-600">
        Every mail the service queued, whether or not it was sent over SMTP (
        {env.SMTP_URL ? "this server sends mail over SMTP" : "this server has no SMTP transport: no mail leaves it"}).{" "}
        {recipient ? `To ${recipient}.` : "The newest 50."} Never enabled in production without DEV_MAIL_VIEWER=1.
      </p>
      {mails.length === 0 ? <p className="mt-6 text-sm text-slate-700">No mail yet.</p> : null}
      <ol className="mt-6 flex flex-col gap-4">
        {mails.map((mail) => (
          <li
            key={mail.id}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            data-testid="mail"
            data-kind={mail.kind}
            data-status={mail.status}
          >
            <h2 className="text-base font-semibold text-slate-900">{mail.subject}</h2>
            <p className="mb-3 text-xs text-slate-600">
              To <span data-testid="mail-to">{mail.to}</span> · {mail.kind} ·{" "}
              <time dateTime={mail.createdAt.toISOString()}>{mail.createdAt.toISOString()}</time>
            </p>
            <Body text={mail.textBody} />
            {mail.htmlBody ? (
              <details className="mt-3 text-xs text-slate-700">
                <summary className="cursor-pointer font-medium">HTML part</summary>
                {/* sandbox: the mail's HTML runs no script and opens nothing here */}
                <iframe
                  title={`HTML part of: ${mail.subject}`}
                  sandbox=""
                  srcDoc={mail.htmlBody}
                  className="mt-2 h-72 w-full rounded border border-slate-200"
                />
              </details>
            ) : null}
            <Delivery mail={mail} />
          </li>
        ))}
      </ol>
    </main>
  );
}
