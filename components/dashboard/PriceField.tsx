"use client";
// An amount in major units ("25.00") beside its currency, as the dashboard's create forms take a price.
import { SelectField } from "./SelectField";
import { TextField } from "./TextField";

/** The currencies offered; a value outside them (an existing product's) is kept, first. */
const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF"];

export function PriceField({
  label,
  amount,
  onAmountChange,
  currency,
  onCurrencyChange,
  placeholder,
  error,
  autoFocus,
}: {
  label: string;
  amount: string;
  onAmountChange: (value: string) => void;
  currency: string;
  onCurrencyChange: (value: string) => void;
  placeholder: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  return (
    <div className="flex gap-3">
      <TextField
        label={label}
        value={amount}
        onChange={onAmountChange}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        error={error}
        className="flex-1"
        autoFocus={autoFocus}
      />
      <SelectField
        label="Currency"
        value={currency}
        onChange={onCurrencyChange}
        options={CURRENCIES.includes(currency) ? CURRENCIES : [currency, ...CURRENCIES]}
        compact
      />
    </div>
  );
}
