"use client";
// "Revoke" a connected app with a confirmation: its access and refresh tokens stop working at once.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

export function RevokeAppButton({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/connected-apps/${id}/revoke`,
    success: `${name} can no longer use your account.`,
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Revoke ${name}`} className="relative z-10">
        Revoke
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Revoke ${name}?`}
        description={<>Its tokens stop working immediately: its next request gets 401. To use it again, connect it again.</>}
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" pending={revoke.isPending} onClick={() => revoke.mutate()}>
              Revoke access
            </Button>
          </>
        }
      />
    </>
  );
}
