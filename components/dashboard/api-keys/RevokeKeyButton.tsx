"use client";
// "Revoke" with a confirmation: the key stops working at once and cannot be restored.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

export function RevokeKeyButton({ id, label }: { id: string; label: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/api-keys/${id}/revoke`,
    success: "Key revoked. Requests with it now get 401.",
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Revoke ${label}`} className="relative z-10">
        Revoke
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Revoke this key?"
        description={
          <>
            <span className="font-mono">{label}</span> stops working immediately: every request made with it gets 401 UNAUTHORIZED. This
            cannot be undone.
          </>
        }
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" pending={revoke.isPending} onClick={() => revoke.mutate()}>
              Revoke key
            </Button>
          </>
        }
      />
    </>
  );
}
