"use client";
// "Archive" with a confirmation (DELETE, as DELETE /v1/paid_resources/:id), or "Restore" for an archived resource
// (PATCH { active: true }). An archived resource is no longer served; its sales stay.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

export function ArchivePaidResourceButton({ id, name, active }: { id: string; name: string; active: boolean }) {
  const [open, setOpen] = useState(false);
  const archive = useDashboardMutation<void>({
    path: `/api/dashboard/paid-resources/${id}`,
    method: "DELETE",
    success: "Paid resource archived.",
    onSuccess: () => setOpen(false),
  });
  const restore = useDashboardMutation<void>({
    path: `/api/dashboard/paid-resources/${id}`,
    method: "PATCH",
    body: () => ({ active: true }),
    success: "Paid resource restored.",
  });
  if (!active) {
    return (
      <Button size="sm" variant="secondary" pending={restore.isPending} onClick={() => restore.mutate()} aria-label={`Restore ${name}`} className="relative z-10">
        Restore
      </Button>
    );
  }
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Archive ${name}`} className="relative z-10">
        Archive
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Archive this paid resource?"
        description={
          <>
            <span className="font-medium">{name}</span> is no longer served at /x402/r/ and /mpp/r/. Its sales stay. You can restore it later.
          </>
        }
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" pending={archive.isPending} onClick={() => archive.mutate()}>
              Archive resource
            </Button>
          </>
        }
      />
    </>
  );
}
