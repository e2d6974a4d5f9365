"use client";
// Turning on two-factor sign-in: "Set up" asks the server for a secret (shown as an otpauth:// link and
// as a key to type), the first code from the app turns it on, then the recovery codes are shown ONCE.
// The page is re-rendered (showing "on") only when the user is done with the codes.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button, buttonClass } from "../Button";
import { CopyableValue } from "../CopyableValue";
import { CopyButton } from "../CopyButton";
import { TextField } from "../TextField";

interface Enrollment {
  secret: string;
  uri: string;
}

const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(" ");

export function TwoFactorSetup() {
  const router = useRouter();
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const [code, setCode] = useState("");
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const setup = useDashboardMutation<void, Enrollment>({
    path: "/api/dashboard/two-factor/setup",
    refresh: false,
    onSuccess: setEnrollment,
  });
  const enable = useDashboardMutation<{ code: string }, { recoveryCodes: string[] }>({
    path: "/api/dashboard/two-factor/enable",
    refresh: false,
    toastErrors: false,
    success: "Two-factor authentication is on.",
    onSuccess: (result) => setRecoveryCodes(result.recoveryCodes),
  });

  if (recoveryCodes) {
    return (
      <div className="flex flex-col gap-4">
        <h3 className="text-sm font-semibold text-slate-900">Save your recovery codes</h3>
        <p className="text-sm text-slate-700">
          Each code signs you in once if you lose your phone. This is the only time they are shown: store them somewhere safe, such as a
          password manager.
        </p>
        <ul
          aria-label="Recovery codes"
          data-testid="recovery-codes"
          className="grid max-w-md grid-cols-1 gap-1 rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm sm:grid-cols-2"
        >
          {recoveryCodes.map((recovery) => (
            <li key={recovery}>{recovery}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <CopyButton value={recoveryCodes.join("\n")} label="Copy codes" />
          <Button variant="primary" onClick={() => router.refresh()}>
            I saved my recovery codes
          </Button>
        </div>
      </div>
    );
  }

  if (!enrollment) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p className="text-sm text-slate-700">
          Sign in with your password and a 6-digit code from an authenticator app on your phone (Google Authenticator, 1Password, Authy,
          ...). Owners and admins need it to make changes in live mode.
        </p>
        <Button variant="primary" pending={setup.isPending} onClick={() => setup.mutate()}>
          Set up two-factor authentication
        </Button>
      </div>
    );
  }

  const codeError = enable.error ? (enable.error.fieldErrors.code ?? enable.error.message) : null;
  return (
    <form
      className="flex max-w-xl flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        enable.mutate({ code: code.trim() });
      }}
    >
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm text-slate-700">
        <li className="space-y-2">
          <span className="block">
            Add this account to your authenticator app: on this device,{" "}
            <a href={enrollment.uri} className="font-medium text-indigo-700 underline underline-offset-2">
              open it in the app
            </a>
            ; elsewhere, copy the link into the app or type the key.
          </span>
          <span className="block font-medium text-slate-800">Key</span>
          <CopyableValue value={grouped(enrollment.secret)} testId="totp-secret" />
          <span className="block font-medium text-slate-800">Link</span>
          <CopyableValue value={enrollment.uri} testId="totp-uri" small />
        </li>
        <li className="space-y-2">
          <span className="block">Enter the 6-digit code the app shows.</span>
          <TextField
            label="Authentication code"
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={20}
            required
            error={codeError}
          />
        </li>
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" type="submit" pending={enable.isPending}>
          Turn on
        </Button>
        <button type="button" className={buttonClass("ghost")} onClick={() => setEnrollment(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
