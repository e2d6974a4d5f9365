"use client";
// "Create paid resource": name, price (entered in major units, sent in minor units), currency, description, and
// what is sold: JSON content returned once paid, or a URL the paid request is forwarded to. The same
// createPaidResource as POST /v1/paid_resources (docs/x402.md).
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { inputToMinor } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { CatalogFields } from "../CatalogFields";
import { FieldError, TextField } from "../TextField";

export function PaidResourceFormButton({ mode }: { mode: "test" | "live" }) {
  const initial = () => ({
    name: "",
    price: "",
    currency: "USD",
    description: "",
    target: "content" as "content" | "url",
    content: '{ "message": "Thanks for paying" }',
    url: "",
  });
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(initial);
  const [localError, setLocalError] = useState<{ price?: string; content?: string }>({});
  const save = useDashboardMutation<Record<string, unknown>>({
    path: "/api/dashboard/paid-resources",
    method: "POST",
    success: "Paid resource created.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  const start = () => {
    setForm(initial());
    setLocalError({});
    save.reset();
    setOpen(true);
  };
  const submit = () => {
    const digits = currencyDigits(form.currency);
    const amount = inputToMinor(form.price, digits);
    const problems: { price?: string; content?: string } = {};
    if (amount === null || amount < 1) problems.price = `Enter a price such as ${(0.05).toFixed(digits)}.`;
    let content: unknown;
    if (form.target === "content") {
      try {
        content = JSON.parse(form.content);
        if (content === null) problems.content = "Enter a JSON value other than null.";
      } catch {
        problems.content = "Enter valid JSON.";
      }
    }
    setLocalError(problems);
    if (problems.price || problems.content) return;
    const description = form.description.trim();
    save.mutate({
      name: form.name.trim(),
      amount,
      currency: form.currency,
      ...(description ? { description } : {}),
      ...(form.target === "content" ? { content } : { url: form.url.trim() }),
    });
  };
  const fieldErrors = save.error?.fieldErrors ?? {};
  const set = (field: "name" | "price" | "currency" | "description" | "content" | "url") => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }));
  return (
    <DialogButton
      trigger={{ children: "Create paid resource", variant: "primary" }}
      open={open}
      onOpen={start}
      onClose={() => setOpen(false)}
      title={`Create a ${mode} paid resource`}
      description="Sold publicly over x402 at /x402/r/:id (USD prices) and over MPP at /mpp/r/:id; the payment is the credential."
      action={{ label: "Create paid resource", pending: save.isPending, onClick: submit }}
      form
      error={messageOfNoField(save.error)}
    >
      <CatalogFields
        draft={form}
        set={set}
        pricePlaceholder="0.05"
        errors={{ name: fieldErrors.name, price: localError.price ?? fieldErrors.amount, description: fieldErrors.description }}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-700">Once paid</legend>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="paid-resource-target"
            checked={form.target === "content"}
            onChange={() => setForm((f) => ({ ...f, target: "content" }))}
          />
          Return this JSON content
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="paid-resource-target"
            checked={form.target === "url"}
            onChange={() => setForm((f) => ({ ...f, target: "url" }))}
          />
          Forward the request to my URL
        </label>
      </fieldset>
      {form.target === "content" ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="paid-resource-content" className="text-sm font-medium text-slate-700">
            Content (JSON)
          </label>
          <textarea
            id="paid-resource-content"
            value={form.content}
            onChange={(event) => set("content")(event.target.value)}
            rows={4}
            aria-invalid={Boolean(localError.content ?? fieldErrors.content)}
            aria-describedby={(localError.content ?? fieldErrors.content) ? "paid-resource-content-error" : undefined}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
          />
          <FieldError id="paid-resource-content-error" error={localError.content ?? fieldErrors.content} />
        </div>
      ) : (
        <TextField
          label="Forward URL"
          value={form.url}
          onChange={set("url")}
          maxLength={2048}
          placeholder="https://api.example.com/report"
          error={fieldErrors.url}
        />
      )}
    </DialogButton>
  );
}
