"use client";
// "Edit": the endpoint's URL, description and event types (PATCH, as the API's update; the secret stays).
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { EndpointFields, noTypesTicked, type EndpointDraft } from "./EndpointFields";

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
}

export function EditEndpointButton({ endpoint }: { endpoint: Endpoint }) {
  const saved = (): EndpointDraft => ({
    url: endpoint.url,
    description: endpoint.description ?? "",
    types: endpoint.enabledEvents.length ? endpoint.enabledEvents : null,
  });
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(saved);
  const [noTypes, setNoTypes] = useState(false);
  const update = useDashboardMutation<{ url: string; description: string | null; enabledEvents: string[] }>({
    path: `/api/dashboard/webhook-endpoints/${endpoint.id}`,
    method: "PATCH",
    success: "Endpoint updated.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  const start = () => {
    setDraft(saved());
    setNoTypes(false);
    update.reset();
    setOpen(true);
  };
  const submit = () => {
    setNoTypes(noTypesTicked(draft));
    if (noTypesTicked(draft)) return;
    update.mutate({ url: draft.url.trim(), description: draft.description.trim() || null, enabledEvents: draft.types ?? [] });
  };
  const fieldErrors = update.error?.fieldErrors ?? {};
  return (
    <DialogButton
      trigger={{ children: "Edit" }}
      open={open}
      onOpen={start}
      onClose={() => setOpen(false)}
      title="Edit endpoint"
      description="Changes apply to events sent from now on. The signing secret stays the same."
      action={{ label: "Save", pending: update.isPending, onClick: submit }}
      form
      error={messageOfNoField(update.error)}
    >
      <EndpointFields draft={draft} onChange={setDraft} fieldErrors={fieldErrors} noTypes={noTypes} />
    </DialogButton>
  );
}
