// The emailed confirmation link of a new account (?token=): one button confirms (a GET alone spends nothing).
import type { Metadata } from "next";
import { EmailLinkPage } from "@/components/auth/EmailLinkPage";
import { ConfirmEmailForm } from "@/components/auth/EmailLinkForms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your email · Agent Payments Service", referrer: "no-referrer" };

export default function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <EmailLinkPage title="Confirm your email" searchParams={searchParams} form={(token) => <ConfirmEmailForm token={token} />} />;
}
