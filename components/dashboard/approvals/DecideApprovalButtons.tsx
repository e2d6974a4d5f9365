"use client";
// "Approve" and "Decline" of a pending approval request, each with a confirmation: approving captures the charge
// (once, however many times it is clicked), declining ends it with nothing charged.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";

type Decision = "approve" | "decline";

const TEXT: Record<Decision, { label: string; title: string; done: string; variant: "primary" | "danger" }> = {
  approve: { label: "Approve", title: "Approve this payment?", done: "Approved: the payment was made.", variant: "primary" },
  decline: { label: "Decline", title: "Decline this payment?", done: "Declined: nothing was charged.", variant: "danger" },
};

function DecideButton({ id, amount, decision }: { id: string; amount: string; decision: Decision }) {
  const [open, setOpen] = useState(false);
  const text = TEXT[decision];
  const decide = useDashboardMutation<void>({
    path: `/api/dashboard/approvals/${id}/${decision}`,
    success: text.done,
    onSuccess: () => setOpen(false),
  });
  return (
    <DialogButton
      trigger={{
        children: text.label,
        size: "sm",
        variant: decision === "approve" ? "primary" : "secondary",
        "aria-label": `${text.label} ${id}`,
        className: "relative z-10",
      }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title={text.title}
      description={
        decision === "approve" ? (
          <>
            {amount} is charged now to the agent&apos;s payment method (<span className="font-mono">{id}</span>).
          </>
        ) : (
          <>
            The merchant&apos;s checkout is canceled and nothing is charged (<span className="font-mono">{id}</span>).
          </>
        )
      }
      action={{ label: text.label, variant: text.variant, pending: decide.isPending, onClick: () => decide.mutate() }}
    />
  );
}

export function DecideApprovalButtons({ id, amount }: { id: string; amount: string }) {
  return (
    <span className="inline-flex gap-2">
      <DecideButton id={id} amount={amount} decision="approve" />
      <DecideButton id={id} amount={amount} decision="decline" />
    </span>
  );
}
