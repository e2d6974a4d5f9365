"use client";
// "Roll": a new secret for the same key settings (a new key), the old secret stopping now or after a grace period
// (docs/restricted-keys.md); the new secret is shown ONCE. The page is refreshed when the dialog closes, not when
// the roll succeeds: the refreshed row of the rolled key has no Roll button any more, and this dialog (with the
// secret) would go with it.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { CopyableValue } from "../CopyableValue";
import { DialogButton } from "../DialogButton";
import { SelectField } from "../SelectField";

const GRACE = [
  { value: "0", label: "Now" },
  { value: "3600", label: "In 1 hour" },
  { value: "86400", label: "In 24 hours" },
  { value: "259200", label: "In 3 days" },
  { value: "604800", label: "In 7 days" },
];

export function RollKeyButton({ id, label }: { id: string; label: string }) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState("0");
  const [secret, setSecret] = useState<string | null>(null);
  const router = useRouter();
  const roll = useDashboardMutation<{ expiresInSeconds: number }, { secret: string }>({
    path: `/api/dashboard/api-keys/${id}/roll`,
    success: "Key rolled.",
    refresh: false,
    onSuccess: (key) => setSecret(key.secret),
  });
  const close = () => {
    if (secret) router.refresh();
    setOpen(false);
    setSecret(null);
    setGrace("0");
    roll.reset();
  };
  return (
    <DialogButton
      trigger={{ children: "Roll", size: "sm", variant: "secondary", "aria-label": `Roll ${label}`, className: "relative z-10" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={secret ? "Save your new key" : "Roll this key?"}
      description={
        secret ? (
          "This is the only time the new key is shown. Replace the old one wherever it is used before it stops."
        ) : (
          <>
            A new key with the same name and permissions replaces <span className="font-mono">{label}</span>, which then stops working (401)
            when you choose.
          </>
        )
      }
      action={{
        label: "Roll key",
        variant: "danger",
        pending: roll.isPending,
        onClick: () => roll.mutate({ expiresInSeconds: Number(grace) }),
      }}
      done={secret ? {} : undefined}
    >
      {secret ? (
        <CopyableValue value={secret} />
      ) : (
        <SelectField label="The old key stops" value={grace} onChange={setGrace} options={GRACE} />
      )}
    </DialogButton>
  );
}
