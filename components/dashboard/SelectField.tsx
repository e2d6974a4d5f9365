"use client";
// A labelled <select>. `compact` matches a TextField's height, for a select beside one (price and currency).
import { useId } from "react";

export interface SelectOption {
  value: string;
  label: string;
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  compact = false,
  mono = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Plain strings are their own label. */
  options: readonly (string | SelectOption)[];
  compact?: boolean;
  mono?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600 ${compact ? "h-[38px]" : "py-2"} ${mono ? "font-mono" : ""}`}
      >
        {options.map((option) => {
          const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
