// Sign-in. Already signed in: straight to the dashboard.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { getDashboard } from "@/lib/dashboard/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Agent Payments Service" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getDashboard()) redirect("/dashboard");
  const { error } = await searchParams;
  return (
    <AuthCard
      title="Sign in to your account"
      footer={
        <>
          New here?{" "}
          <Link href="/signup" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <CredentialsForm provider="signin" initialError={typeof error === "string" ? error : null} />
    </AuthCard>
  );
}
