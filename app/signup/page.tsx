// Sign-up: a pending sign-up and its emailed link (lib/auth/pending-sign-ups.ts); the form then says "check
// your email" whatever the address, and the link, used with the same password, creates the account.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { CALLBACK_PARAM, safeCallbackPath, withCallback } from "@/lib/dashboard/callback-path";
import { getDashboard } from "@/lib/dashboard/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account · Agent Payments Service" };

export default async function SignupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safeCallbackPath((await searchParams)[CALLBACK_PARAM]);
  if (await getDashboard()) redirect(callbackUrl);
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{" "}
          <Link href={withCallback("/login", callbackUrl)} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <CredentialsForm provider="signup" callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
