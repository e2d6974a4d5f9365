"use client";
// "Replay failed (24 h)" on an endpoint's page: every delivery of this endpoint that ended failed in the last
// 24 hours is queued again, in one statement (lib/webhooks/endpoint-health.ts).
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";

export function ReplayFailedButton({ endpointId, disabled = false }: { endpointId: string; disabled?: boolean }) {
  const replay = useDashboardMutation<void, { requeuedDeliveries: number }>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}/replay-failed`,
    body: () => ({ since: new Date(Date.now() - 24 * 3600 * 1000).toISOString() }),
    success: (result) => (result.requeuedDeliveries ? `${result.requeuedDeliveries} failed deliveries queued again.` : "No failed deliveries in the last 24 hours."),
  });
  return (
    <Button size="sm" pending={replay.isPending} disabled={disabled} onClick={() => replay.mutate()}>
      Replay failed (24 h)
    </Button>
  );
}
