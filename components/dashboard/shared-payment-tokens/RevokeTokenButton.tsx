"use client";
// "Revoke" with a confirmation: the token can no longer pay (a payment it already made stays; refund that instead).
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

export function RevokeTokenButton({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/shared-payment-tokens/${id}/revoke`,
    success: "Token revoked. It can no longer pay.",
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{ children: "Revoke", size: "sm", variant: "secondary", "aria-label": `Revoke ${id}`, className: "relative z-10" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title="Revoke this token?"
      description={
        <>
          <span className="font-mono">{id}</span> stops working at once: a merchant redeeming it is refused and nothing is charged. This
          cannot be undone.
        </>
      }
      action={{ label: "Revoke token", variant: "danger", pending: revoke.isPending, onClick: () => revoke.mutate() }}
    />
  );
}
