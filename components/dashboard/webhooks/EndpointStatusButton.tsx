"use client";
// Disable (deliveries stop being queued; queued ones fail as "endpoint disabled") or enable again.
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";

export function EndpointStatusButton({ endpointId, status }: { endpointId: string; status: string }) {
  const next = status === "enabled" ? "disabled" : "enabled";
  const update = useDashboardMutation<void>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}`,
    method: "PATCH",
    body: () => ({ status: next }),
    success: next === "disabled" ? "Endpoint disabled. No new events are sent to it." : "Endpoint enabled.",
  });
  return (
    <Button pending={update.isPending} onClick={() => update.mutate()}>
      {next === "disabled" ? "Disable" : "Enable"}
    </Button>
  );
}
