// The dev mail viewer: the newest mails of email_outbox (there is no external mail service), with their
// links clickable. Served only outside production, or with DEV_MAIL_VIEWER=1 (the e2e and test servers);
// otherwise it is the 404 page. ?to=address shows one recipient's mails.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { devMailViewerEnabled, recentMails } from "@/lib/mail/outbox";

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

export default async function DevMailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (!devMailViewerEnabled()) notFound();
  const { to } = await searchParams;
  const recipient = typeof to === "string" && to.length <= 320 && !to.includes("\0") ? to.trim().toLowerCase() : null;
  const mails = await recentMails(recipient);
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-xl font-semibold text-slate-900">Dev mail viewer</h1>
      <p className="mt-1 text-sm text-slate-600">
        Mails the service would send (no mail leaves this machine). {recipient ? `To ${recipient}.` : "The newest 50."} Never enabled in
        production without DEV_MAIL_VIEWER=1.
      </p>
      {mails.length === 0 ? <p className="mt-6 text-sm text-slate-700">No mail yet.</p> : null}
      <ol className="mt-6 flex flex-col gap-4">
        {mails.map((mail) => (
          <li key={mail.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="mail" data-kind={mail.kind}>
            <h2 className="text-base font-semibold text-slate-900">{mail.subject}</h2>
            <p className="mb-3 text-xs text-slate-600">
              To <span data-testid="mail-to">{mail.to}</span> · {mail.kind} ·{" "}
              <time dateTime={mail.createdAt.toISOString()}>{mail.createdAt.toISOString()}</time>
            </p>
            <Body text={mail.textBody} />
          </li>
        ))}
      </ol>
    </main>
  );
}
