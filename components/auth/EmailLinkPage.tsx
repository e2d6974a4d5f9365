// The page an emailed link (?token=) opens: the auth card, a way back to sign in, and the link's form, or a
// notice when the token is missing or cut short. The confirmation and password-reset pages differ only in
// title and form.
import type { ReactNode } from "react";
import Link from "next/link";
import { AuthCard } from "./AuthCard";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function EmailLinkPage({
  title,
  searchParams,
  form,
}: {
  title: string;
  searchParams: SearchParams;
  form: (token: string) => ReactNode;
}) {
  const { token } = await searchParams;
  return (
    <AuthCard
      title={title}
      footer={
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {typeof token === "string" && token.length > 0 && token.length <= 200 ? (
        form(token)
      ) : (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          This link is incomplete. Open the whole link from the mail.
        </p>
      )}
    </AuthCard>
  );
}
