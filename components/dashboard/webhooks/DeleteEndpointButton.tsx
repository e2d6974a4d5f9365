"use client";
// "Delete" with a confirmation; its queued deliveries go with it. Back to the list afterwards.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

export function DeleteEndpointButton({ endpointId, url }: { endpointId: string; url: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useDashboardMutation<void>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}`,
    method: "DELETE",
    success: "Endpoint deleted.",
    successPage: "/dashboard/webhooks",
    // This page is gone: go to the list instead of re-rendering it.
    refresh: false,
    onSuccess: () => {
      setOpen(false);
      router.push("/dashboard/webhooks");
      router.refresh();
    },
  });
  return (
    <DialogButton
      trigger={{ children: "Delete", variant: "danger" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title="Delete this endpoint?"
      description={
        <>
          <span className="break-all font-mono">{url}</span> stops receiving events at once, and deliveries still queued for it are dropped.
          This cannot be undone.
        </>
      }
      action={{ label: "Delete endpoint", variant: "danger", pending: remove.isPending, onClick: () => remove.mutate() }}
    />
  );
}
