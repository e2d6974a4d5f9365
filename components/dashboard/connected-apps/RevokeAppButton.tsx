"use client";
// "Revoke" a connected app with a confirmation: its access and refresh tokens stop working at once.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

export function RevokeAppButton({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/connected-apps/${id}/revoke`,
    success: `${name} can no longer use your account.`,
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{ children: "Revoke", size: "sm", variant: "secondary", "aria-label": `Revoke ${name}`, className: "relative z-10" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title={`Revoke ${name}?`}
      description="Its tokens stop working immediately: its next request gets 401. To use it again, connect it again."
      action={{ label: "Revoke access", variant: "danger", pending: revoke.isPending, onClick: () => revoke.mutate() }}
    />
  );
}
