// A new password with the emailed link (?token=); setting it signs every session of the account out.
import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { ResetPasswordForm } from "@/components/auth/EmailLinkForms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password · Agent Payments Service", referrer: "no-referrer" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {typeof token === "string" && token.length > 0 && token.length <= 200 ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          This link is incomplete. Open the whole link from the mail.
        </p>
      )}
    </AuthCard>
  );
}
