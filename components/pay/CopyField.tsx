"use client";
// A value to paste elsewhere, with a copy button (the value stays selectable without JavaScript).
import { useState } from "react";

export function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-1.5">
      <span id="copy-field-label" className="text-sm font-medium text-slate-700">
        {label}
      </span>
      <div className="flex items-stretch gap-2">
        <code
          aria-labelledby="copy-field-label"
          data-testid="copy-value"
          className="min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        >
          {value}
        </code>
        <button
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          className="rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Copy
        </button>
      </div>
      <p aria-live="polite" className="text-sm text-emerald-700">
        {copied ? "Copied." : ""}
      </p>
    </div>
  );
}
