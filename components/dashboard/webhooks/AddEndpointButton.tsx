"use client";
// "Add endpoint": URL, optional description and the event types; then its signing secret, shown ONCE.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";
import { CopyableValue } from "../CopyableValue";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { EndpointFields, noTypesTicked, type EndpointDraft } from "./EndpointFields";

interface CreatedEndpoint {
  id: string;
  url: string;
  secret: string;
}

const EMPTY: EndpointDraft = { url: "", description: "", types: null };

export function AddEndpointButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(EMPTY);
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
    setDraft(EMPTY);
    setNoTypes(false);
    create.reset();
  };
  const submit = () => {
    setNoTypes(noTypesTicked(draft));
    if (noTypesTicked(draft)) return;
    const description = draft.description.trim();
    create.mutate({ url: draft.url.trim(), enabledEvents: draft.types ?? [], ...(description ? { description } : {}) });
  };
  const fieldErrors = create.error?.fieldErrors ?? {};
  // A URL the service refuses (not http(s), with credentials, a private address on a deployment) comes back as a message, not a field.
  const urlError =
    fieldErrors.url ?? (create.error?.code === "VALIDATION_ERROR" ? (messageOfNoField(create.error) ?? undefined) : undefined);
  return (
    <DialogButton
      trigger={{ children: "Add endpoint", variant: "primary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={created ? "Save your signing secret" : `Add a ${mode}-mode endpoint`}
      description={
        created
          ? "Verify every delivery's x-service-signature header with this secret. This is the only time it is shown; rotate it if it is lost."
          : "We POST each event to this URL as JSON, signed with the endpoint's secret."
      }
      action={{ label: "Add endpoint", pending: create.isPending, onClick: submit }}
      done={created ? { links: <Button href={`/dashboard/webhooks/${created.id}`}>Open endpoint</Button> } : undefined}
      form
    >
      {created ? (
        <CopyableValue value={created.secret} />
      ) : (
        <EndpointFields draft={draft} onChange={setDraft} fieldErrors={fieldErrors} urlError={urlError} noTypes={noTypes} />
      )}
    </DialogButton>
  );
}
