"use client";
// "Refund": full (the unrefunded remainder) or a partial amount, with a reason, confirmed in a dialog.
// The server decides (createRefund, as POST /v1/refunds); a refusal is shown in the dialog in its words.
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { formatMoney, inputToMinor } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton } from "../DialogButton";
import { SelectField } from "../SelectField";
import { TextField } from "../TextField";

const REASONS = [
  { value: "requested_by_customer", label: "Requested by customer" },
  { value: "duplicate", label: "Duplicate" },
  { value: "fraudulent", label: "Fraudulent" },
  { value: "other", label: "Other" },
];

interface Props {
  target: { orderId: string } | { paymentIntentId: string };
  currency: string;
  /** Captured minus refunded so far, in minor units. */
  remaining: number;
}

export function RefundButton({ target, currency, remaining }: Props) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<"full" | "partial">("full");
  const [amountText, setAmountText] = useState("");
  const [reason, setReason] = useState(REASONS[0].value);
  const [inputError, setInputError] = useState<string | null>(null);
  const digits = currencyDigits(currency);
  const refund = useDashboardMutation<{ amount?: number; reason: string }, { amount: number }>({
    path: "/api/dashboard/refunds",
    body: (variables) => ({ ...target, ...variables }),
    success: (result) => `Refunded ${formatMoney(result.amount, currency)}.`,
    toastErrors: false,
    onSuccess: () => close(),
  });
  function close() {
    setOpen(false);
    setKind("full");
    setAmountText("");
    setInputError(null);
    refund.reset();
  }
  function confirm() {
    if (kind === "full") return refund.mutate({ reason });
    const amount = inputToMinor(amountText, digits);
    if (amount === null || amount < 1) {
      setInputError(`Enter an amount such as ${(1).toFixed(digits)}.`);
      return;
    }
    setInputError(null);
    refund.mutate({ amount, reason });
  }
  // A refusal answers the amount that was sent: once the amount or kind changes it no longer applies.
  function edit<T>(set: (value: T) => void) {
    return (value: T) => {
      set(value);
      setInputError(null);
      if (refund.error) refund.reset();
    };
  }
  const serverError = refund.error;
  return (
    <DialogButton
      trigger={{ children: "Refund", variant: "secondary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title="Refund payment"
      description={`Up to ${formatMoney(remaining, currency)} can be refunded. Refunds go back to the payer's payment method and cannot be undone.`}
      action={{
        label: kind === "full" ? `Refund ${formatMoney(remaining, currency)}` : "Refund",
        pending: refund.isPending,
        onClick: confirm,
      }}
      error={serverError?.message}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">Amount</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name="refund-kind"
            checked={kind === "full"}
            onChange={() => edit(setKind)("full")}
            className="accent-indigo-600"
          />
          Full refund ({formatMoney(remaining, currency)})
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name="refund-kind"
            checked={kind === "partial"}
            onChange={() => edit(setKind)("partial")}
            className="accent-indigo-600"
          />
          Partial refund
        </label>
      </fieldset>
      {kind === "partial" ? (
        <TextField
          label={`Refund amount (${currency})`}
          value={amountText}
          onChange={edit(setAmountText)}
          inputMode="decimal"
          autoComplete="off"
          placeholder={(remaining / 10 ** digits / 2).toFixed(digits)}
          error={inputError ?? serverError?.fieldErrors.amount}
          autoFocus
        />
      ) : null}
      <SelectField label="Reason" value={reason} onChange={setReason} options={REASONS} />
    </DialogButton>
  );
}
