"use client";
// Name, price (major units) with its currency, and description: what a product and a paid resource are
// created with.
import { PriceField } from "./PriceField";
import { TextField } from "./TextField";

export interface CatalogDraft {
  name: string;
  price: string;
  currency: string;
  description: string;
}

export function CatalogFields({
  draft,
  set,
  pricePlaceholder,
  priceLabel = "Price",
  errors,
}: {
  draft: CatalogDraft;
  set: (field: keyof CatalogDraft) => (value: string) => void;
  pricePlaceholder: string;
  /** What the price is (a usage-priced paid resource's is per unit). */
  priceLabel?: string;
  errors: { name?: string; price?: string | null; description?: string };
}) {
  return (
    <>
      <TextField label="Name" value={draft.name} onChange={set("name")} maxLength={256} required autoFocus error={errors.name} />
      <PriceField
        label={priceLabel}
        amount={draft.price}
        onAmountChange={set("price")}
        currency={draft.currency}
        onCurrencyChange={set("currency")}
        placeholder={pricePlaceholder}
        error={errors.price}
      />
      <TextField
        label="Description (optional)"
        value={draft.description}
        onChange={set("description")}
        maxLength={1000}
        error={errors.description}
      />
    </>
  );
}
