"use client";
// The forms behind the emailed links: "forgot password" (asks for a reset mail), "reset password" (a new
// password with the link's token) and "confirm email" (the sign-up's password, so that the link creates
// the account only for whoever chose it; a mail scanner's GET of the link spends nothing). Each POSTs JSON to /api/account/* (lib/auth/account-routes.ts) and says the
// answer in words, announced to assistive technology.
import Link from "next/link";
import type { FormEvent, ReactNode } from "react";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/messages";
import { Button } from "../dashboard/Button";
import { inputClass } from "./AuthCard";
import { useFormOutcome, type FormOutcome } from "./useFormOutcome";

async function post(path: string, body: unknown): Promise<FormOutcome> {
  try {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = (await res.json().catch(() => ({}))) as { message?: string; error?: { message?: string } };
    return { ok: res.ok, message: data.message ?? data.error?.message ?? "Something went wrong on our side. Try again in a moment." };
  } catch {
    return { ok: false, message: "Could not reach the server. Check your connection and try again." };
  }
}

function Field({ id, label, children, hint }: { id: string; label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";

/** What a spent link leaves: its notice and the way to sign in. */
function SignInAfter({ notice }: { notice: ReactNode }) {
  return (
    <div className="flex flex-col gap-4">
      {notice}
      <Link href="/login" className={linkClass}>
        Sign in
      </Link>
    </div>
  );
}

export function ForgotPasswordForm() {
  const { pending, run, notice, outcome, hydrated } = useFormOutcome();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    void run(() => post("/api/account/forgot-password", { email }));
  }
  return (
    <form onSubmit={submit} method="post" className="flex flex-col gap-4">
      {notice}
      <Field id="forgot-email" label="Email">
        <input
          id="forgot-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={200}
          aria-invalid={outcome && !outcome.ok ? true : undefined}
          className={inputClass}
        />
      </Field>
      <Button type="submit" variant="primary" pending={pending} disabled={!hydrated} className="mt-2 w-full">
        {pending ? "Sending…" : "Email me a reset link"}
      </Button>
    </form>
  );
}

/** A form that POSTs the link's token with the password typed into it (reset, confirm). */
function useTokenAndPassword(path: string, token: string) {
  const form = useFormOutcome();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    void form.run(() => post(path, { token, password }));
  }
  return { ...form, submit };
}

export function ResetPasswordForm({ token }: { token: string }) {
  const { pending, notice, outcome, hydrated, submit } = useTokenAndPassword("/api/account/reset-password", token);
  if (outcome?.ok) return <SignInAfter notice={notice} />;
  return (
    <form onSubmit={submit} method="post" className="flex flex-col gap-4">
      {notice}
      <Field id="reset-password" label="New password" hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}>
        <input
          id="reset-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={200}
          aria-describedby="reset-password-hint"
          aria-invalid={outcome && !outcome.ok ? true : undefined}
          className={inputClass}
        />
      </Field>
      <Button type="submit" variant="primary" pending={pending} disabled={!hydrated} className="mt-2 w-full">
        {pending ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}

export function ConfirmEmailForm({ token }: { token: string }) {
  const { pending, notice, outcome, hydrated, submit } = useTokenAndPassword("/api/account/confirm-email", token);
  if (outcome?.ok) return <SignInAfter notice={notice} />;
  return (
    <form onSubmit={submit} method="post" className="flex flex-col gap-4">
      {notice}
      <p className="text-sm text-slate-700">
        Enter the password you chose when you signed up: it confirms this email address and creates your account.
      </p>
      <Field id="confirm-password" label="Password">
        <input
          id="confirm-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
          aria-invalid={outcome && !outcome.ok ? true : undefined}
          className={inputClass}
        />
      </Field>
      <Button type="submit" variant="primary" pending={pending} disabled={!hydrated} className="w-full">
        {pending ? "Confirming…" : "Confirm my email"}
      </Button>
    </form>
  );
}
