"use client";
// The invitation page's two forms (lib/auth/invitation-route.ts): a new account for the invited address (name
// and password; the link confirms the address), or "Join" for the signed-in invited user. Each POSTs JSON
// to /api/account/invitations/accept and says the answer in words, announced to assistive technology.
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/messages";
import { Button } from "../dashboard/Button";
import { inputClass } from "./AuthCard";
import { useFormOutcome, type FormOutcome } from "./useFormOutcome";

async function accept(body: unknown): Promise<FormOutcome> {
  try {
    const res = await fetch("/api/account/invitations/accept", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
    if (res.ok) return { ok: true, message: "You joined the team." };
    return { ok: false, message: data.error?.message ?? "Something went wrong on our side. Try again in a moment." };
  } catch {
    return { ok: false, message: "Could not reach the server. Check your connection and try again." };
  }
}

export function CreateAccountForm({ token, email }: { token: string; email: string }) {
  const { pending, run, notice, outcome, hydrated } = useFormOutcome();
  if (outcome?.ok)
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Your account is ready and you joined the team. Sign in with {email} to continue.
        </p>
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </div>
    );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void run(() => accept({ token, name: String(form.get("name") ?? ""), password: String(form.get("password") ?? "") }));
  }
  return (
    <form onSubmit={submit} method="post" className="flex flex-col gap-4">
      {notice}
      <div className="flex flex-col gap-1.5">
        <label htmlFor="invite-email" className="text-sm font-medium text-slate-700">
          Email
        </label>
        <input id="invite-email" type="email" autoComplete="username" value={email} readOnly className={`${inputClass} bg-slate-50`} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="invite-name" className="text-sm font-medium text-slate-700">
          Your name
        </label>
        <input id="invite-name" name="name" autoComplete="name" required maxLength={100} className={inputClass} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="invite-password" className="text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="invite-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={200}
          aria-describedby="invite-password-hint"
          className={inputClass}
        />
        <p id="invite-password-hint" className="text-xs text-slate-600">
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <Button type="submit" variant="primary" pending={pending} disabled={!hydrated} className="mt-2 w-full">
        {pending ? "Creating…" : "Create account and join"}
      </Button>
    </form>
  );
}

export function JoinTeamForm({ token, merchantName }: { token: string; merchantName: string }) {
  const router = useRouter();
  const { pending, run, notice, hydrated } = useFormOutcome();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if ((await run(() => accept({ token }))).ok) router.push("/dashboard");
  }
  return (
    <form onSubmit={submit} method="post" className="flex flex-col gap-4">
      {notice}
      <Button type="submit" variant="primary" pending={pending} disabled={!hydrated} className="w-full">
        {pending ? "Joining…" : `Join ${merchantName}`}
      </Button>
    </form>
  );
}
