"use client";
// "Create secret key": name it, create it, then show the secret ONCE with a copy button.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { CopyableValue } from "../CopyableValue";
import { DialogButton } from "../DialogButton";
import { TextField } from "../TextField";

interface CreatedKey {
  id: string;
  secret: string;
  livemode: boolean;
}

export function CreateKeyButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useDashboardMutation<{ name?: string }, CreatedKey>({
    path: "/api/dashboard/api-keys",
    success: "Secret key created.",
    onSuccess: (key) => setCreated(key),
  });
  const close = () => {
    setOpen(false);
    setCreated(null);
    setName("");
    create.reset();
  };
  return (
    <DialogButton
      trigger={{ children: "Create secret key", variant: "primary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={created ? "Save your secret key" : `Create a ${mode} secret key`}
      description={
        created
          ? "This is the only time the key is shown. Store it somewhere safe; if you lose it, create a new one."
          : "The key can do everything the API allows in " + mode + " mode."
      }
      action={{ label: "Create key", pending: create.isPending, onClick: () => create.mutate(name.trim() ? { name: name.trim() } : {}) }}
      done={created ? {} : undefined}
    >
      {created ? (
        <CopyableValue value={created.secret} />
      ) : (
        <TextField
          label="Name (optional)"
          value={name}
          onChange={setName}
          placeholder="e.g. Production server"
          maxLength={100}
          error={create.error?.fieldErrors.name}
        />
      )}
    </DialogButton>
  );
}
