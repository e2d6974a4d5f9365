"use client";
// "Create restricted key": a name and the permission matrix, then the secret (rk_...) shown ONCE with a copy button.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import type { Permissions } from "@/lib/merchants/permissions";
import { CopyableValue } from "../CopyableValue";
import { DialogButton } from "../DialogButton";
import { TextField } from "../TextField";
import { emptyPermissions, PermissionMatrix } from "./PermissionMatrix";

interface CreatedKey {
  id: string;
  secret: string;
}

export function CreateRestrictedKeyButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [permissions, setPermissions] = useState<Permissions>(emptyPermissions);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useDashboardMutation<{ name?: string; permissions: Permissions }, CreatedKey>({
    path: "/api/dashboard/api-keys",
    success: "Restricted key created.",
    toastErrors: false,
    onSuccess: (key) => setCreated(key),
  });
  const close = () => {
    setOpen(false);
    setCreated(null);
    setName("");
    setPermissions(emptyPermissions());
    create.reset();
  };
  return (
    <DialogButton
      trigger={{ children: "Create restricted key" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={created ? "Save your restricted key" : `Create a ${mode} restricted key`}
      description={
        created
          ? "This is the only time the key is shown. Store it somewhere safe; if you lose it, roll the key."
          : `The key can do only what you grant here, in ${mode} mode; anything else is refused with 403.`
      }
      action={{
        label: "Create key",
        pending: create.isPending,
        onClick: () => create.mutate({ ...(name.trim() ? { name: name.trim() } : {}), permissions }),
      }}
      done={created ? {} : undefined}
      form
      error={create.error && !create.error.fieldErrors.name ? create.error.message : null}
    >
      {created ? (
        <CopyableValue value={created.secret} />
      ) : (
        <>
          <TextField
            label="Name (optional)"
            value={name}
            onChange={setName}
            placeholder="e.g. Shopping agent"
            maxLength={100}
            error={create.error?.fieldErrors.name}
          />
          <PermissionMatrix value={permissions} onChange={setPermissions} />
        </>
      )}
    </DialogButton>
  );
}
