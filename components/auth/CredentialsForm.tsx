"use client";
// The sign-in and sign-up forms: next-auth's signIn() with the "signin" or "signup" Credentials provider
// (next-auth adds its own CSRF token), errors shown in words and announced, then on to the dashboard.
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent, type RefObject } from "react";
import { authErrorMessage, PASSWORD_MIN_LENGTH } from "@/lib/auth/messages";
import { Button } from "../dashboard/Button";
import { inputClass } from "./AuthCard";

interface Field {
  name: string;
  label: string;
  type: string;
  autoComplete: string;
  minLength?: number;
  hint?: string;
}

const FIELDS: Record<"signin" | "signup", Field[]> = {
  signin: [
    { name: "email", label: "Email", type: "email", autoComplete: "username" },
    { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
  ],
  signup: [
    { name: "name", label: "Business name", type: "text", autoComplete: "organization" },
    { name: "email", label: "Email", type: "email", autoComplete: "username" },
    {
      name: "password",
      label: "Password",
      type: "password",
      autoComplete: "new-password",
      minLength: PASSWORD_MIN_LENGTH,
      hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
    },
  ],
};

export function CredentialsForm({
  provider,
  initialError,
  callbackUrl = "/dashboard",
}: {
  provider: "signin" | "signup";
  initialError?: string | null;
  callbackUrl?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(authErrorMessage(initialError));
  const [pending, setPending] = useState(false);
  const [checkEmail, setCheckEmail] = useState<string | null>(null);
  // Sign-in's second step (two-factor authentication on): the first step's fields, sent again with the code.
  const [firstStep, setFirstStep] = useState<Record<string, string> | null>(null);
  const [recovery, setRecovery] = useState(false);
  const errorRef = useRef<HTMLElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields = { ...firstStep, ...(Object.fromEntries(form) as Record<string, string>) };
    setPending(true);
    setError(null);
    const result = await signIn(provider, { ...fields, redirect: false, callbackUrl }).catch(() => null);
    if (result?.ok && !result.error) {
      router.replace(callbackUrl);
      router.refresh();
      return;
    }
    setPending(false);
    if (
      result?.error === "TWO_FACTOR_REQUIRED" ||
      (firstStep && (result?.error === "TWO_FACTOR_INVALID" || result?.error === "RATE_LIMITED"))
    ) {
      // The password was right: ask for the code (the code field takes the focus); a wrong code stays here.
      setFirstStep({ email: fields.email ?? "", password: fields.password ?? "" });
      if (result.error !== "TWO_FACTOR_REQUIRED") {
        setError(authErrorMessage(result.error));
        requestAnimationFrame(() => errorRef.current?.focus());
      }
      return;
    }
    setFirstStep(null);
    if (result?.error === "CHECK_EMAIL") {
      // Every well-formed sign-up ends here, whether or not the email had an account (lib/auth/credentials.ts).
      setCheckEmail(String(form.get("email") ?? ""));
      requestAnimationFrame(() => errorRef.current?.focus());
      return;
    }
    setError(result ? authErrorMessage(result.error) : "Could not reach the server. Check your connection and try again.");
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  if (checkEmail !== null) {
    return (
      <div
        ref={errorRef as RefObject<HTMLDivElement | null>}
        tabIndex={-1}
        role="status"
        className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-3 text-sm text-emerald-900"
      >
        <p className="font-semibold">Check your email</p>
        <p>
          We sent a message to <strong>{checkEmail}</strong>. Open the link in it to finish creating your account, then sign in. Nothing
          arrived? Check the address and sign up again.
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate={false}>
      {error ? (
        <p
          ref={errorRef as RefObject<HTMLParagraphElement | null>}
          tabIndex={-1}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      {firstStep ? (
        <SecondStep
          recovery={recovery}
          invalid={Boolean(error)}
          onSwitch={() => setRecovery(!recovery)}
          onBack={() => {
            setFirstStep(null);
            setError(null);
          }}
        />
      ) : null}
      {(firstStep ? [] : FIELDS[provider]).map((field) => (
        <div key={field.name} className="flex flex-col gap-1.5">
          <label htmlFor={`${provider}-${field.name}`} className="text-sm font-medium text-slate-700">
            {field.label}
          </label>
          <input
            id={`${provider}-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete={field.autoComplete}
            required
            minLength={field.minLength}
            maxLength={200}
            aria-invalid={error ? true : undefined}
            aria-describedby={field.hint ? `${provider}-${field.name}-hint` : undefined}
            className={inputClass}
          />
          {field.hint ? (
            <p id={`${provider}-${field.name}-hint`} className="text-xs text-slate-600">
              {field.hint}
            </p>
          ) : null}
        </div>
      ))}
      <Button type="submit" variant="primary" pending={pending} className="mt-2 w-full">
        {provider === "signin" ? (pending ? "Signing in…" : "Sign in") : pending ? "Creating account…" : "Create account"}
      </Button>
      {provider === "signin" && !firstStep ? (
        <a href="/forgot-password" className="text-center text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
          Forgot password?
        </a>
      ) : null}
    </form>
  );
}

/** The code field of sign-in's second step: an authenticator app's code, or a recovery code. */
function SecondStep({
  recovery,
  invalid,
  onSwitch,
  onBack,
}: {
  recovery: boolean;
  invalid: boolean;
  onSwitch: () => void;
  onBack: () => void;
}) {
  const id = recovery ? "signin-recovery-code" : "signin-code";
  return (
    <>
      <p className="text-sm text-slate-700">
        {recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor authentication. Each works once."
          : "Two-factor authentication is on for this account. Enter the 6-digit code from your authenticator app."}
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {recovery ? "Recovery code" : "Authentication code"}
        </label>
        <input
          key={id}
          id={id}
          name="code"
          type="text"
          inputMode={recovery ? "text" : "numeric"}
          autoComplete={recovery ? "off" : "one-time-code"}
          autoFocus
          required
          maxLength={40}
          aria-invalid={invalid ? true : undefined}
          className={inputClass}
        />
      </div>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" onClick={onSwitch} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
          {recovery ? "Use the authenticator app" : "Use a recovery code"}
        </button>
        <button type="button" onClick={onBack} className="font-medium text-slate-700 underline-offset-2 hover:underline">
          Back
        </button>
      </div>
    </>
  );
}
