"use client";
// "Create product" and "Edit": name, price (entered in major units, sent in minor units), currency and a
// description; the same createProduct / updateProduct as POST /v1/products and POST /v1/products/:id.
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { inputToMinor, minorToInput } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/lib/dashboard/use-dashboard-mutation";
import { Button } from "../Button";
import { Dialog } from "../Dialog";
import { TextField } from "../TextField";

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF"];

export interface EditableProduct {
  id: string;
  name: string;
  description: string | null;
  unitAmount: number;
  currency: string;
}

export function ProductFormButton({ product, mode }: { product?: EditableProduct; mode: "test" | "live" }) {
  const editing = product !== undefined;
  const initial = () => ({
    name: product?.name ?? "",
    price: product ? minorToInput(product.unitAmount, currencyDigits(product.currency)) : "",
    currency: product?.currency ?? "USD",
    description: product?.description ?? "",
  });
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(initial);
  const [priceError, setPriceError] = useState<string | null>(null);
  const save = useDashboardMutation<Record<string, unknown>>({
    path: editing ? `/api/dashboard/products/${product.id}` : "/api/dashboard/products",
    method: editing ? "PATCH" : "POST",
    success: editing ? "Product updated." : "Product created.",
    toastErrors: false,
    onSuccess: () => setOpen(false),
  });
  const start = () => {
    setForm(initial());
    setPriceError(null);
    save.reset();
    setOpen(true);
  };
  const submit = () => {
    const digits = currencyDigits(form.currency);
    const unitAmount = inputToMinor(form.price, digits);
    if (unitAmount === null) {
      setPriceError(`Enter a price such as ${(10).toFixed(digits)}.`);
      return;
    }
    setPriceError(null);
    const description = form.description.trim();
    save.mutate({
      name: form.name.trim(),
      unitAmount,
      currency: form.currency,
      ...(description ? { description } : editing ? { description: null } : {}),
    });
  };
  const fieldErrors = save.error?.fieldErrors ?? {};
  const otherError = save.error && !Object.keys(fieldErrors).length ? save.error.message : null;
  const set = (field: keyof ReturnType<typeof initial>) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  return (
    <>
      {editing ? (
        <Button size="sm" variant="secondary" onClick={start} aria-label={`Edit ${product.name}`} className="relative z-10">
          Edit
        </Button>
      ) : (
        <Button variant="primary" onClick={start}>
          Create product
        </Button>
      )}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={editing ? "Edit product" : `Create a ${mode} product`}
        description={
          editing
            ? "Checkouts opened from now on use the new name and price; orders already made keep theirs."
            : "Sell it in checkouts with items: [{ productId, quantity }]."
        }
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" pending={save.isPending} onClick={submit}>
              {editing ? "Save" : "Create product"}
            </Button>
          </>
        }
      >
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField label="Name" value={form.name} onChange={set("name")} maxLength={256} required autoFocus error={fieldErrors.name} />
          <div className="flex gap-3">
            <TextField
              label="Price"
              value={form.price}
              onChange={set("price")}
              inputMode="decimal"
              autoComplete="off"
              placeholder="25.00"
              error={priceError ?? fieldErrors.unitAmount}
              className="flex-1"
            />
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`product-currency-${product?.id ?? "new"}`} className="text-sm font-medium text-slate-700">
                Currency
              </label>
              <select
                id={`product-currency-${product?.id ?? "new"}`}
                value={form.currency}
                onChange={(event) => set("currency")(event.target.value)}
                className="h-[38px] rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
              >
                {(CURRENCIES.includes(form.currency) ? CURRENCIES : [form.currency, ...CURRENCIES]).map((code) => (
                  <option key={code}>{code}</option>
                ))}
              </select>
            </div>
          </div>
          <TextField
            label="Description (optional)"
            value={form.description}
            onChange={set("description")}
            maxLength={1000}
            error={fieldErrors.description}
          />
          {otherError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {otherError}
            </p>
          ) : null}
          <button type="submit" hidden />
        </form>
      </Dialog>
    </>
  );
}
