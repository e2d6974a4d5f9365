"use client";
// "Send test event": pick a type the endpoint receives; a sample event of it is queued for this endpoint
// only and appears in the deliveries log once sent.
import { useId, useState } from "react";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";

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
  const id = useId();
  const [open, setOpen] = useState(false);
  const [type, setType] = useState(eventTypes[0]);
  const send = useDashboardMutation<void, { eventId: string }>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}/test-event`,
    body: () => ({ type }),
    success: (result) => `Test event ${result.eventId} queued; it shows in the log once sent.`,
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <Button
        variant="primary"
        disabled={disabled || liveMode}
        title={liveMode ? "Test events are sent in test mode only" : disabled ? "Enable the endpoint to send it events" : undefined}
        onClick={() => setOpen(true)}
      >
        Send test event
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Send a test event"
        description="A sample event of this type, with ids of all zeros, is sent to this endpoint only, signed like every delivery."
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" pending={send.isPending} onClick={() => send.mutate()}>
              Send test event
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium text-slate-700">
            Event type
          </label>
          <select
            id={id}
            value={type}
            onChange={(event) => setType(event.target.value)}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600"
          >
            {eventTypes.map((eventType) => (
              <option key={eventType} value={eventType}>
                {eventType}
              </option>
            ))}
          </select>
        </div>
      </Dialog>
    </>
  );
}
