// "Forgot password?": a reset link mailed to the address when it has an account; the page answers the
// same either way (docs/dashboard.md, "Email links").
import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { ForgotPasswordForm } from "@/components/auth/EmailLinkForms";

export const metadata: Metadata = { title: "Reset your password · Agent Payments Service" };

export default function ForgotPasswordPage() {
  return (
    <AuthCard
      title="Reset your password"
      footer={
        <>
          Remembered it?{" "}
          <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <p className="mb-4 text-sm text-slate-700">
        Enter your account&apos;s email and we&apos;ll send you a link to choose a new password.
      </p>
      <ForgotPasswordForm />
    </AuthCard>
  );
}
