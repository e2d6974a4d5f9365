"use client";
// "Archive" with a confirmation (DELETE, as DELETE /v1/products/:id), or "Restore" for an archived product
// (PATCH { active: true }). An archived product stays readable; checkouts refuse it.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

export function ArchiveProductButton({ id, name, active }: { id: string; name: string; active: boolean }) {
  const [open, setOpen] = useState(false);
  const archive = useDashboardMutation<void>({
    path: `/api/dashboard/products/${id}`,
    method: "DELETE",
    success: "Product archived.",
    onSuccess: () => setOpen(false),
  });
  const restore = useDashboardMutation<void>({
    path: `/api/dashboard/products/${id}`,
    method: "PATCH",
    body: () => ({ active: true }),
    success: "Product restored.",
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
        title="Archive this product?"
        description={
          <>
            <span className="font-medium">{name}</span> can no longer be sold: checkouts naming it are refused. Orders already made keep it. You can restore it later.
          </>
        }
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" pending={archive.isPending} onClick={() => archive.mutate()}>
              Archive product
            </Button>
          </>
        }
      />
    </>
  );
}
