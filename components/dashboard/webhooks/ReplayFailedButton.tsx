"use client";
// "Replay failed" on an endpoint's page: "replay all failed since ..." — every delivery of this endpoint that
// ended failed at or after the chosen time (24 hours ago unless changed) is queued again, in one statement
// (lib/webhooks/endpoint-health.ts).
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";
import { TextField } from "../TextField";

/** `YYYY-MM-DDTHH:mm` in the browser's time zone (what <input type="datetime-local"> holds). */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function ReplayFailedButton({ endpointId, disabled = false }: { endpointId: string; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [since, setSince] = useState("");
  const sinceDate = since ? new Date(since) : null;
  const invalid = !sinceDate || Number.isNaN(sinceDate.getTime());
  const replay = useDashboardMutation<void, { requeuedDeliveries: number }>({
    path: `/api/dashboard/webhook-endpoints/${endpointId}/replay-failed`,
    body: () => ({ since: sinceDate!.toISOString() }),
    success: (result) =>
      result.requeuedDeliveries ? `${result.requeuedDeliveries} failed deliveries queued again.` : "No failed deliveries since then.",
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{
        children: "Replay failed…",
        size: "sm",
        disabled,
        title: disabled ? "Enable the endpoint to replay its deliveries" : undefined,
      }}
      open={open}
      onOpen={() => {
        setSince(localInputValue(new Date(Date.now() - 24 * 3600 * 1000)));
        setOpen(true);
      }}
      onClose={() => setOpen(false)}
      title="Replay failed deliveries"
      description="Every delivery to this endpoint that failed (its retries used up) since this time is queued again and sent at once, signed like every delivery."
      action={{ label: "Replay all failed", pending: replay.isPending, disabled: invalid, onClick: () => replay.mutate() }}
    >
      <TextField
        label="Failed since"
        type="datetime-local"
        value={since}
        onChange={setSince}
        error={since && invalid ? "Choose a date and time." : undefined}
        hint="In your browser's time zone."
      />
    </DialogButton>
  );
}
