"use client";
// "Turn off": confirmed with the password or a current code (an authenticator code or a recovery code).
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { TextField } from "../TextField";

export function TurnOffTwoFactorButton() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const disable = useDashboardMutation<{ password?: string; code?: string }>({
    path: "/api/dashboard/two-factor/disable",
    success: "Two-factor authentication is off.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  const close = () => {
    setOpen(false);
    setPassword("");
    setCode("");
    disable.reset();
  };
  const submit = () => disable.mutate(password ? { password } : { code: code.trim() });
  return (
    <DialogButton
      trigger={{ children: "Turn off", variant: "danger" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title="Turn off two-factor authentication"
      description="Sign-in will ask for your password only, and as an owner or admin you cannot make changes in live mode. Confirm with your password or a current code."
      action={{ label: "Turn off", variant: "danger", pending: disable.isPending, onClick: submit, disabled: !password && !code.trim() }}
      form
      error={messageOfNoField(disable.error)}
    >
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        maxLength={200}
        error={disable.error?.fieldErrors.password}
      />
      <TextField
        label="Or an authentication code"
        hint="From your authenticator app, or a recovery code."
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
        maxLength={40}
        error={disable.error?.fieldErrors.code}
      />
    </DialogButton>
  );
}
