"use client";
// Which event types an endpoint receives: every type (null here, the API's empty list), or the ones ticked
// (possibly none yet: the form then asks for at least one rather than silently sending everything).
import { useId } from "react";
import { EVENT_TYPES } from "@/lib/events/types";
import { FieldError } from "../TextField";

export function EventTypePicker({
  value,
  onChange,
  error,
}: {
  /** null = every event type. */
  value: string[] | null;
  onChange: (types: string[] | null) => void;
  error?: string;
}) {
  const id = useId();
  const all = value === null;
  const toggle = (type: string, checked: boolean) => onChange(checked ? [...(value ?? []), type] : (value ?? []).filter((t) => t !== type));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700">Events to send</legend>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="radio" name={`${id}-scope`} checked={all} onChange={() => onChange(null)} />
        All event types (including ones added later)
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="radio" name={`${id}-scope`} checked={!all} onChange={() => onChange([])} />
        Selected event types
      </label>
      {!all ? (
        <div className="ml-6 grid grid-cols-1 gap-1 sm:grid-cols-2" role="group" aria-label="Event types">
          {EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 font-mono text-xs text-slate-800">
              <input type="checkbox" checked={value!.includes(type)} onChange={(event) => toggle(type, event.target.checked)} />
              {type}
            </label>
          ))}
        </div>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
