// A new password with the emailed link (?token=); setting it signs every session of the account out.
import type { Metadata } from "next";
import { EmailLinkPage } from "@/components/auth/EmailLinkPage";
import { ResetPasswordForm } from "@/components/auth/EmailLinkForms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password · Agent Payments Service", referrer: "no-referrer" };

export default function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <EmailLinkPage title="Choose a new password" searchParams={searchParams} form={(token) => <ResetPasswordForm token={token} />} />;
}
