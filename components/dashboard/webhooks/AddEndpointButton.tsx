"use client";
// "Add endpoint": URL, optional description and the event types; then its signing secret, shown ONCE.
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";
import { TextField } from "../TextField";
import { EventTypePicker } from "./EventTypePicker";
import { CopyableValue } from "../CopyableValue";

interface CreatedEndpoint {
  id: string;
  url: string;
  secret: string;
}

export function AddEndpointButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<string[] | null>(null);
  const [noTypes, setNoTypes] = useState(false);
  const [created, setCreated] = useState<CreatedEndpoint | null>(null);
  const create = useDashboardMutation<{ url: string; description?: string; enabledEvents: string[] }, CreatedEndpoint>({
    path: "/api/dashboard/webhook-endpoints",
    success: "Endpoint added.",
    onSuccess: (endpoint) => setCreated(endpoint),
  });
  const close = () => {
    setOpen(false);
    setCreated(null);
    setUrl("");
    setDescription("");
    setTypes(null);
    setNoTypes(false);
    create.reset();
  };
  const submit = () => {
    setNoTypes(types !== null && types.length === 0);
    if (types !== null && types.length === 0) return;
    create.mutate({ url: url.trim(), enabledEvents: types ?? [], ...(description.trim() ? { description: description.trim() } : {}) });
  };
  const fieldErrors = create.error?.fieldErrors ?? {};
  // A URL the service refuses (not http(s), with credentials, a private address on a deployment) comes back as a message, not a field.
  const urlError =
    fieldErrors.url ?? (create.error?.code === "VALIDATION_ERROR" && !Object.keys(fieldErrors).length ? create.error.message : undefined);
  const typesError = noTypes
    ? "Tick at least one event type, or choose all event types."
    : Object.entries(fieldErrors).find(([path]) => path.startsWith("enabledEvents"))?.[1];
  return (
    <>
      <Button variant="primary" onClick={() => setOpen(true)}>
        Add endpoint
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={created ? "Save your signing secret" : `Add a ${mode}-mode endpoint`}
        description={
          created
            ? "Verify every delivery's x-service-signature header with this secret. This is the only time it is shown; rotate it if it is lost."
            : "We POST each event to this URL as JSON, signed with the endpoint's secret."
        }
        footer={
          created ? (
            <>
              <Button href={`/dashboard/webhooks/${created.id}`}>Open endpoint</Button>
              <Button variant="primary" onClick={close}>
                Done
              </Button>
            </>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button variant="primary" pending={create.isPending} onClick={submit}>
                Add endpoint
              </Button>
            </>
          )
        }
      >
        {created ? (
          <CopyableValue value={created.secret} />
        ) : (
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <TextField
              label="Endpoint URL"
              type="url"
              value={url}
              onChange={setUrl}
              placeholder="https://example.com/webhooks"
              maxLength={2048}
              required
              error={urlError}
            />
            <TextField
              label="Description (optional)"
              value={description}
              onChange={setDescription}
              maxLength={500}
              error={fieldErrors.description}
            />
            <EventTypePicker value={types} onChange={setTypes} error={typesError} />
          </form>
        )}
      </Dialog>
    </>
  );
}
