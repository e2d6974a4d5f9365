"use client";
// "Rotate secret": confirm, then the new secret ONCE. The previous secret keeps signing beside it (a second
// v1= entry) for 24 hours, so receivers can switch without dropping a delivery.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { CopyableValue } from "../CopyableValue";
import { DialogButton } from "../DialogButton";

export function RotateSecretButton({ endpointId }: { endpointId: string }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useDashboardMutation<void, { secret: string }>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}/rotate-secret`,
    success: "Signing secret rotated.",
    onSuccess: (endpoint) => setSecret(endpoint.secret),
  });
  const close = () => {
    setOpen(false);
    setSecret(null);
    rotate.reset();
  };
  return (
    <DialogButton
      trigger={{ children: "Rotate secret" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={secret ? "Save your new signing secret" : "Rotate the signing secret?"}
      description={
        secret
          ? "This is the only time it is shown. The previous secret keeps signing deliveries beside the new one for 24 hours, then stops."
          : "A new secret is made and shown once. For the next 24 hours every delivery is signed with both the new and the previous secret, so you can update your receiver without missing events."
      }
      action={{ label: "Rotate secret", pending: rotate.isPending, onClick: () => rotate.mutate() }}
      done={secret ? {} : undefined}
    >
      {secret ? <CopyableValue value={secret} /> : null}
    </DialogButton>
  );
}
