"use client";
// "Create checkout": amount, currency and a description; then the pay link to open or copy. It is opened
// by openCheckout, exactly as POST /v1/checkouts would.
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { formatMoney, inputToMinor } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { buttonClass } from "../Button";
import { CopyableValue } from "../CopyableValue";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { PriceField } from "../PriceField";
import { TextField } from "../TextField";

interface Created {
  id: string;
  url: string;
  amount: number;
  currency: string;
}

export function CreateCheckoutButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [amountText, setAmountText] = useState("");
  const [currency, setCurrency] = useState("USD");
  const [description, setDescription] = useState("");
  const [amountError, setAmountError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const create = useDashboardMutation<Record<string, unknown>, Created>({
    path: "/api/dashboard/checkouts",
    success: "Checkout created.",
    toastErrors: false,
    onSuccess: (checkout) => setCreated(checkout),
  });
  const close = () => {
    setOpen(false);
    setCreated(null);
    setAmountText("");
    setDescription("");
    setAmountError(null);
    create.reset();
  };
  const submit = () => {
    const digits = currencyDigits(currency);
    const amount = inputToMinor(amountText, digits);
    if (amount === null || amount < 1) {
      setAmountError(`Enter an amount such as ${(10).toFixed(digits)}.`);
      return;
    }
    setAmountError(null);
    create.mutate({ amount, currency, ...(description.trim() ? { description: description.trim() } : {}) });
  };
  return (
    <DialogButton
      trigger={{ children: "Create checkout", variant: "primary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title={created ? "Checkout created" : `Create a ${mode} checkout`}
      description={
        created
          ? `Send the payer this link to pay ${formatMoney(created.amount, created.currency)}.`
          : mode === "test"
            ? "A test checkout: pay it with the card 4242 4242 4242 4242."
            : "A live checkout charges real money."
      }
      action={{ label: "Create checkout", pending: create.isPending, onClick: submit }}
      done={
        created
          ? {
              links: (
                <a href={created.url} target="_blank" rel="noopener noreferrer" className={buttonClass("secondary")}>
                  Open pay page
                </a>
              ),
            }
          : undefined
      }
      form
      error={messageOfNoField(create.error)}
    >
      {created ? (
        <CopyableValue value={created.url} testId="pay-link" small />
      ) : (
        <>
          <PriceField
            label="Amount"
            amount={amountText}
            onAmountChange={setAmountText}
            currency={currency}
            onCurrencyChange={setCurrency}
            placeholder="25.00"
            error={amountError ?? create.error?.fieldErrors.amount}
            autoFocus
          />
          <TextField
            label="Description (optional)"
            value={description}
            onChange={setDescription}
            maxLength={1000}
            placeholder="What the payer is paying for"
            error={create.error?.fieldErrors.description}
          />
        </>
      )}
    </DialogButton>
  );
}
