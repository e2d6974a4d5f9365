"use client";
// "Resend" on a delivery row (an endpoint's log, an event's deliveries): queues that event again for this
// endpoint (the next tick sends it).
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";

export function ResendEventButton({
  eventId,
  endpointId,
  disabled = false,
  label = `Resend ${eventId}`,
}: {
  eventId: string;
  endpointId: string;
  disabled?: boolean;
  /** The accessible name: what tells this row's button from the others ("Resend evt_..." on an endpoint's log). */
  label?: string;
}) {
  const resend = useDashboardMutation<void, { queuedDeliveries: number }>({
    path: `/api/dashboard/events/${eventId}/resend`,
    body: () => ({ webhookEndpointId: endpointId }),
    success: (result) => (result.queuedDeliveries ? "Event queued to be sent again." : "Nothing queued: the endpoint is disabled."),
  });
  return (
    <Button
      size="sm"
      pending={resend.isPending}
      disabled={disabled}
      onClick={() => resend.mutate()}
      aria-label={label}
      className="relative z-10"
    >
      Resend
    </Button>
  );
}
