// The emailed confirmation link of a new account (?token=): one button confirms (a GET alone spends nothing).
import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { ConfirmEmailForm } from "@/components/auth/EmailLinkForms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your email · Agent Payments Service", referrer: "no-referrer" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <AuthCard
      title="Confirm your email"
      footer={
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {typeof token === "string" && token.length > 0 && token.length <= 200 ? (
        <ConfirmEmailForm token={token} />
      ) : (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          This link is incomplete. Open the whole link from the mail.
        </p>
      )}
    </AuthCard>
  );
}
