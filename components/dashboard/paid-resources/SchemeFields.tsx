"use client";
// How a paid resource is priced over x402 (docs/x402.md, "Usage-priced resources"): a fixed price (exact), or by
// usage (upto: the payer authorizes the maximum, and pays the units the merchant's server reports in X-Usage-Units
// times the unit price). The maximum is asked only for upto.
import { TextField } from "../TextField";
import type { Scheme } from "./pricing";

export function SchemeFields({
  scheme,
  onSchemeChange,
  maxPrice,
  onMaxPriceChange,
  currency,
  maxError,
}: {
  scheme: Scheme;
  onSchemeChange: (scheme: Scheme) => void;
  maxPrice: string;
  onMaxPriceChange: (value: string) => void;
  currency: string;
  maxError?: string | null;
}) {
  const options: { value: Scheme; label: string }[] = [
    { value: "exact", label: "A fixed amount per request (exact)" },
    { value: "upto", label: "By usage, up to a maximum (upto): your server reports the units used in X-Usage-Units" },
  ];
  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-700">Pricing</legend>
        {options.map((option) => (
          <label key={option.value} className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name="paid-resource-scheme"
              className="mt-0.5"
              checked={scheme === option.value}
              onChange={() => onSchemeChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {scheme === "upto" ? (
        <TextField
          label="Maximum per payment"
          value={maxPrice}
          onChange={onMaxPriceChange}
          inputMode="decimal"
          autoComplete="off"
          placeholder="1.00"
          hint={`In ${currency}: what the payer authorizes; a payment is charged the units used times the unit price, never more than this.`}
          error={maxError}
        />
      ) : null}
    </>
  );
}
