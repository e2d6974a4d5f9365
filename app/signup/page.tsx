// Sign-up: a new merchant with its first test and live API keys, signed in at once.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { getDashboard } from "@/lib/dashboard/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account · Agent Payments Service" };

export default async function SignupPage() {
  if (await getDashboard()) redirect("/dashboard");
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{" "}
          <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <CredentialsForm provider="signup" />
    </AuthCard>
  );
}
