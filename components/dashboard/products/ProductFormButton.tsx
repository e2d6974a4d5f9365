"use client";
// "Create product" and "Edit": name, price (entered in major units, sent in minor units), currency and a
// description; the same createProduct / updateProduct as POST /v1/products and POST /v1/products/:id.
import { useState } from "react";
import { currencyDigits } from "@/lib/money/format";
import { inputToMinor, minorToInput } from "@/lib/dashboard/format";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { CatalogFields } from "../CatalogFields";

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
  const set = (field: keyof ReturnType<typeof initial>) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  return (
    <DialogButton
      trigger={
        editing
          ? { children: "Edit", size: "sm", variant: "secondary", "aria-label": `Edit ${product.name}`, className: "relative z-10" }
          : { children: "Create product", variant: "primary" }
      }
      open={open}
      onOpen={start}
      onClose={() => setOpen(false)}
      title={editing ? "Edit product" : `Create a ${mode} product`}
      description={
        editing
          ? "Checkouts opened from now on use the new name and price; orders already made keep theirs."
          : "Sell it in checkouts with items: [{ productId, quantity }]."
      }
      action={{ label: editing ? "Save" : "Create product", pending: save.isPending, onClick: submit }}
      form
      error={messageOfNoField(save.error)}
    >
      <CatalogFields
        draft={form}
        set={set}
        pricePlaceholder="25.00"
        errors={{ name: fieldErrors.name, price: priceError ?? fieldErrors.unitAmount, description: fieldErrors.description }}
      />
    </DialogButton>
  );
}
