"use client";
// The account pages' forms (emailed links, invitations): run one request, then say its answer in words in a
// notice that takes focus, announced to assistive technology (status when it worked, alert when not).
import { useRef, useState } from "react";
import { useHydrated } from "../useHydrated";

export type FormOutcome = { ok: boolean; message: string };

/**
 * Buttons stay disabled until React has hydrated (`hydrated`): a click before would be lost, and a form
 * submitted natively would put its fields (an email, a new password) into the page's URL.
 */
export function useFormOutcome() {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<FormOutcome | null>(null);
  const [pending, setPending] = useState(false);
  const ref = useRef<HTMLParagraphElement>(null);
  async function run(work: () => Promise<FormOutcome>): Promise<FormOutcome> {
    setPending(true);
    setOutcome(null);
    const result = await work();
    setPending(false);
    setOutcome(result);
    requestAnimationFrame(() => ref.current?.focus());
    return result;
  }
  const notice = outcome ? (
    <p
      ref={ref}
      tabIndex={-1}
      role={outcome.ok ? "status" : "alert"}
      className={`rounded-md border px-3 py-2 text-sm ${outcome.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      {outcome.message}
    </p>
  ) : null;
  return { outcome, pending, run, notice, hydrated };
}
