"use client";
// "Edit": the endpoint's URL, description and event types (PATCH, as the API's update; the secret stays).
import { useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";
import { TextField } from "../TextField";
import { EventTypePicker } from "./EventTypePicker";

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
}

export function EditEndpointButton({ endpoint }: { endpoint: Endpoint }) {
  const initialTypes = endpoint.enabledEvents.length ? endpoint.enabledEvents : null;
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? "");
  const [types, setTypes] = useState<string[] | null>(initialTypes);
  const [noTypes, setNoTypes] = useState(false);
  const update = useDashboardMutation<{ url: string; description: string | null; enabledEvents: string[] }>({
    path: `/api/dashboard/webhook-endpoints/${endpoint.id}`,
    method: "PATCH",
    success: "Endpoint updated.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  const start = () => {
    setUrl(endpoint.url);
    setDescription(endpoint.description ?? "");
    setTypes(initialTypes);
    setNoTypes(false);
    update.reset();
    setOpen(true);
  };
  const submit = () => {
    setNoTypes(types !== null && types.length === 0);
    if (types !== null && types.length === 0) return;
    update.mutate({ url: url.trim(), description: description.trim() || null, enabledEvents: types ?? [] });
  };
  const fieldErrors = update.error?.fieldErrors ?? {};
  const typesError = noTypes
    ? "Tick at least one event type, or choose all event types."
    : Object.entries(fieldErrors).find(([path]) => path.startsWith("enabledEvents"))?.[1];
  const otherError = update.error && !Object.keys(fieldErrors).length ? update.error.message : null;
  return (
    <>
      <Button onClick={start}>Edit</Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Edit endpoint"
        description="Changes apply to events sent from now on. The signing secret stays the same."
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" pending={update.isPending} onClick={submit}>
              Save
            </Button>
          </>
        }
      >
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField label="Endpoint URL" type="url" value={url} onChange={setUrl} maxLength={2048} required error={fieldErrors.url} />
          <TextField
            label="Description (optional)"
            value={description}
            onChange={setDescription}
            maxLength={500}
            error={fieldErrors.description}
          />
          <EventTypePicker value={types} onChange={setTypes} error={typesError} />
          {otherError ? (
            <p role="alert" className="text-sm text-red-700">
              {otherError}
            </p>
          ) : null}
        </form>
      </Dialog>
    </>
  );
}
