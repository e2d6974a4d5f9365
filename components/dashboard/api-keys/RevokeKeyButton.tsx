"use client";
// "Revoke" with a confirmation: the key stops working at once and cannot be restored.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

export function RevokeKeyButton({ id, label }: { id: string; label: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/api-keys/${id}/revoke`,
    success: "Key revoked. Requests with it now get 401.",
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{ children: "Revoke", size: "sm", variant: "secondary", "aria-label": `Revoke ${label}`, className: "relative z-10" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title="Revoke this key?"
      description={
        <>
          <span className="font-mono">{label}</span> stops working immediately: every request made with it gets 401 UNAUTHORIZED. This
          cannot be undone.
        </>
      }
      action={{ label: "Revoke key", variant: "danger", pending: revoke.isPending, onClick: () => revoke.mutate() }}
    />
  );
}
