// The page a team invitation's link opens (?token=; lib/auth/accept-invitation.ts). Opening it spends
// nothing: a new address creates its account here, an existing user signs in (and comes back here) and
// joins with one button.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { getServerSession } from "next-auth";
import { AuthCard } from "@/components/auth/AuthCard";
import { CreateAccountForm, JoinTeamForm } from "@/components/auth/InvitationForms";
import { SignOutButton } from "@/components/dashboard/SignOutButton";
import { authOptions } from "@/lib/auth/options";
import { liveSessionAccount } from "@/lib/auth/sessions";
import { INVITATION_PATH, loginUrlFor } from "@/lib/dashboard/callback-path";
import { getDb } from "@/lib/db";
import { previewInvitation } from "@/lib/auth/accept-invitation";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join a team · Agent Payments Service", referrer: "no-referrer", robots: { index: false } };

const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";

function JoinCard({ children }: { children: ReactNode }) {
  return (
    <AuthCard
      title="Join a team"
      footer={
        <Link href="/login" className={linkClass}>
          Back to sign in
        </Link>
      }
    >
      {children}
    </AuthCard>
  );
}

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const valid = typeof token === "string" && token.length > 0 && token.length <= 200;
  const invitation = valid ? await previewInvitation(getDb(), token) : null;
  if (!valid || !invitation)
    return (
      <JoinCard>
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {valid
            ? "This invitation link has expired, was already used or was revoked. Ask the team for a new one."
            : "This link is incomplete. Open the whole link from the mail."}
        </p>
      </JoinCard>
    );
  const session = await getServerSession(authOptions);
  const user = session?.sid && session.userId ? await liveSessionAccount(session.sid, session.userId) : null;
  const intro = (
    <p className="text-sm text-slate-700">
      You are invited to join <strong className="font-semibold text-slate-900">{invitation.merchantName}</strong> as{" "}
      <strong className="font-semibold text-slate-900">{invitation.role}</strong>, with{" "}
      <strong className="break-all font-semibold text-slate-900">{invitation.email}</strong>.
    </p>
  );
  const here = `${INVITATION_PATH}?token=${encodeURIComponent(token)}`;
  let body;
  if (!invitation.accountExists) body = <CreateAccountForm token={token} email={invitation.email} />;
  else if (user?.email === invitation.email) body = <JoinTeamForm token={token} merchantName={invitation.merchantName} />;
  else if (user)
    body = (
      <div className="flex flex-col gap-3 text-sm text-slate-700">
        <p role="note">
          You are signed in as <strong className="break-all">{user.email}</strong>. Sign out, then sign in as {invitation.email} and open
          the link again.
        </p>
        <SignOutButton />
      </div>
    );
  else
    body = (
      <Link href={loginUrlFor(here)} className={linkClass}>
        Sign in as {invitation.email} to join
      </Link>
    );
  return (
    <JoinCard>
      <div className="flex flex-col gap-5">
        {intro}
        {body}
      </div>
    </JoinCard>
  );
}
