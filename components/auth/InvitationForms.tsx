"use client";
// The invitation page's two forms (lib/team/accept-route.ts): a new account for the invited address (name
// and password; the link confirms the address), or "Join" for the signed-in invited user. Each POSTs JSON
// to /api/account/invitations/accept and says the answer in words, announced to assistive technology.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/messages";
import { Button } from "../dashboard/Button";
import { useHydrated } from "../useHydrated";
import { inputClass } from "./AuthCard";

type Outcome = { ok: boolean; message: string } | null;

async function accept(body: unknown): Promise<{ ok: boolean; message: string }> {
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

function useOutcome() {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pending, setPending] = useState(false);
  const ref = useRef<HTMLParagraphElement>(null);
  async function run(body: unknown) {
    setPending(true);
    setOutcome(null);
    const result = await accept(body);
    setPending(false);
    setOutcome(result);
    requestAnimationFrame(() => ref.current?.focus());
    return result;
  }
  const notice = outcome ? (
    <p
      ref={ref}
      tabIndex={-1}
      role={outcome.ok ? "status" : "alert"}
      className={`rounded-md border px-3 py-2 text-sm ${outcome.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      {outcome.message}
    </p>
  ) : null;
  return { outcome, pending, run, notice, hydrated };
}

export function CreateAccountForm({ token, email }: { token: string; email: string }) {
  const { pending, run, notice, outcome, hydrated } = useOutcome();
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
    void run({ token, name: String(form.get("name") ?? ""), password: String(form.get("password") ?? "") });
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
  const { pending, run, notice, hydrated } = useOutcome();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if ((await run({ token })).ok) router.push("/dashboard");
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
