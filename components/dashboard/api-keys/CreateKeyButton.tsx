"use client";
// "Create secret key": name it, create it, then show the secret ONCE with a copy button.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { CopyButton } from "../CopyButton";
import { Dialog } from "../Dialog";
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
    <>
      <Button variant="primary" onClick={() => setOpen(true)}>
        Create secret key
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={created ? "Save your secret key" : `Create a ${mode} secret key`}
        description={created ? "This is the only time the key is shown. Store it somewhere safe; if you lose it, create a new one." : "The key can do everything the API allows in " + mode + " mode."}
        footer={
          created ? (
            <Button variant="primary" onClick={close}>
              Done
            </Button>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button variant="primary" pending={create.isPending} onClick={() => create.mutate(name.trim() ? { name: name.trim() } : {})}>
                Create key
              </Button>
            </>
          )
        }
      >
        {created ? (
          <div className="flex items-center gap-2">
            <code data-testid="new-secret" className="min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm">
              {created.secret}
            </code>
            <CopyButton value={created.secret} />
          </div>
        ) : (
          <TextField label="Name (optional)" value={name} onChange={setName} placeholder="e.g. Production server" maxLength={100} error={create.error?.fieldErrors.name} />
        )}
      </Dialog>
    </>
  );
}
