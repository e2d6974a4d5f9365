"use client";
// "Accept dispute": the merchant concedes (closeDispute, as POST /v1/disputes/:id/close): the dispute is lost at once,
// its amount and fee stay with the payer's bank. Confirmed in a dialog; a refusal is shown there.
import { useState } from "react";
import { formatMoney } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

export function AcceptDisputeButton({
  disputeId,
  amount,
  fee,
  currency,
}: {
  disputeId: string;
  amount: number;
  fee: number;
  currency: string;
}) {
  const [open, setOpen] = useState(false);
  const accept = useDashboardMutation({
    path: `/api/dashboard/disputes/${disputeId}/close`,
    body: () => ({}),
    success: "Dispute accepted.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{ children: "Accept dispute", variant: "secondary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => {
        setOpen(false);
        accept.reset();
      }}
      title="Accept this dispute"
      description={`You will not contest it: ${formatMoney(amount, currency)}${fee ? ` and the ${formatMoney(fee, currency)} fee` : ""} stay with the payer's bank. This cannot be undone.`}
      action={{ label: "Accept dispute", variant: "danger", pending: accept.isPending, onClick: () => accept.mutate() }}
      error={accept.error?.message}
    />
  );
}
