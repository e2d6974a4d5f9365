"use client";
// "Send test event": pick a type the endpoint receives; a sample event of it is queued for this endpoint
// only and appears in the deliveries log once sent.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";
import { SelectField } from "../SelectField";

export function SendTestEventButton({
  endpointId,
  eventTypes,
  disabled,
  liveMode,
}: {
  endpointId: string;
  eventTypes: readonly string[];
  disabled: boolean;
  liveMode: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState(eventTypes[0]);
  const send = useDashboardMutation<void, { eventId: string }>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}/test-event`,
    body: () => ({ type }),
    success: (result) => `Test event ${result.eventId} queued; it shows in the log once sent.`,
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{
        children: "Send test event",
        variant: "primary",
        disabled: disabled || liveMode,
        title: liveMode ? "Test events are sent in test mode only" : disabled ? "Enable the endpoint to send it events" : undefined,
      }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title="Send a test event"
      description="A sample event of this type, with ids of all zeros, is sent to this endpoint only, signed like every delivery."
      action={{ label: "Send test event", pending: send.isPending, onClick: () => send.mutate() }}
    >
      <SelectField label="Event type" value={type} onChange={setType} options={eventTypes} mono />
    </DialogButton>
  );
}
