"use client";
// "Create checkout": amount, currency and a description; then the pay link to open or copy. It is opened
// by openCheckout, exactly as POST /v1/checkouts would.
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { formatMoney, inputToMinor } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button, buttonClass } from "../Button";
import { CopyableValue } from "../CopyableValue";
import { Dialog } from "../Dialog";
import { TextField } from "../TextField";

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF"];

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
    <>
      <Button variant="primary" onClick={() => setOpen(true)}>
        Create checkout
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={created ? "Checkout created" : `Create a ${mode} checkout`}
        description={
          created
            ? `Send the payer this link to pay ${formatMoney(created.amount, created.currency)}.`
            : mode === "test"
              ? "A test checkout: pay it with the card 4242 4242 4242 4242."
              : "A live checkout charges real money."
        }
        footer={
          created ? (
            <>
              <a href={created.url} target="_blank" rel="noopener noreferrer" className={buttonClass("secondary")}>
                Open pay page
              </a>
              <Button variant="primary" onClick={close}>
                Done
              </Button>
            </>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button variant="primary" pending={create.isPending} onClick={submit}>
                Create checkout
              </Button>
            </>
          )
        }
      >
        {created ? (
          <CopyableValue value={created.url} testId="pay-link" small />
        ) : (
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <div className="flex gap-3">
              <TextField
                label="Amount"
                value={amountText}
                onChange={setAmountText}
                inputMode="decimal"
                autoComplete="off"
                placeholder="25.00"
                error={amountError ?? create.error?.fieldErrors.amount}
                className="flex-1"
                autoFocus
              />
              <div className="flex flex-col gap-1.5">
                <label htmlFor="checkout-currency" className="text-sm font-medium text-slate-700">
                  Currency
                </label>
                <select
                  id="checkout-currency"
                  value={currency}
                  onChange={(event) => setCurrency(event.target.value)}
                  className="h-[38px] rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
                >
                  {CURRENCIES.map((code) => (
                    <option key={code}>{code}</option>
                  ))}
                </select>
              </div>
            </div>
            <TextField
              label="Description (optional)"
              value={description}
              onChange={setDescription}
              maxLength={1000}
              placeholder="What the payer is paying for"
              error={create.error?.fieldErrors.description}
            />
            {create.error && !Object.keys(create.error.fieldErrors).length ? (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                {create.error.message}
              </p>
            ) : null}
            <button type="submit" hidden />
          </form>
        )}
      </Dialog>
    </>
  );
}
