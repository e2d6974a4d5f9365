"use client";
// "Revoke" with a confirmation: the token can no longer pay (a payment it already made stays; refund that instead).
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

export function RevokeTokenButton({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/shared-payment-tokens/${id}/revoke`,
    success: "Token revoked. It can no longer pay.",
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Revoke ${id}`} className="relative z-10">
        Revoke
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Revoke this token?"
        description={
          <>
            <span className="font-mono">{id}</span> stops working at once: a merchant redeeming it is refused and nothing is charged. This
            cannot be undone.
          </>
        }
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" pending={revoke.isPending} onClick={() => revoke.mutate()}>
              Revoke token
            </Button>
          </>
        }
      />
    </>
  );
}
