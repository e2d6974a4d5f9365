// Sign-in, then on to ?callbackUrl= when it is a dashboard page (lib/dashboard/callback-path.ts), else
// /dashboard. Already signed in: straight there.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { CALLBACK_PARAM, safeCallbackPath, withCallback } from "@/lib/dashboard/callback-path";
import { getDashboard } from "@/lib/dashboard/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Agent Payments Service" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params[CALLBACK_PARAM]);
  if (await getDashboard()) redirect(callbackUrl);
  const { error } = params;
  return (
    <AuthCard
      title="Sign in to your account"
      footer={
        <>
          New here?{" "}
          <Link href={withCallback("/signup", callbackUrl)} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <CredentialsForm provider="signin" initialError={typeof error === "string" ? error : null} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
