"use client";
// The merchant's answer to a dispute awaiting it: its own words, the agent evidence pack attached (by default), then
// "Save" (kept, not sent) or "Submit evidence" (sent: the dispute goes under review). The server decides
// (updateDispute, as POST /v1/disputes/:id); a refusal is shown in its words.
import { useId, useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";
import { FieldError } from "../TextField";

interface Props {
  disputeId: string;
  /** The evidence saved so far (its text fields). */
  saved: { uncategorizedText?: string; productDescription?: string };
  /** A pack can be assembled for this payment (the preview above it rendered). */
  packAvailable: boolean;
  packAttached: boolean;
}

function TextArea({
  label,
  hint,
  value,
  onChange,
  error,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={4}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        aria-invalid={error ? true : undefined}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export function DisputeResponseForm({ disputeId, saved, packAvailable, packAttached }: Props) {
  const [text, setText] = useState(saved.uncategorizedText ?? "");
  const [description, setDescription] = useState(saved.productDescription ?? "");
  const [attachPack, setAttachPack] = useState(packAvailable || packAttached);
  const respond = useDashboardMutation<{ submit: boolean }>({
    path: `/api/dashboard/disputes/${disputeId}`,
    body: ({ submit }) => ({
      evidence: {
        uncategorizedText: text,
        ...(description ? { productDescription: description } : {}),
        includeEvidencePack: attachPack,
      },
      ...(submit ? { submit: true } : {}),
    }),
    success: (_, { submit }) => (submit ? "Evidence submitted. The dispute is under review." : "Evidence saved."),
    toastErrors: false,
  });
  const fieldErrors = respond.error?.fieldErrors ?? {};
  const generalError = respond.error && !Object.keys(fieldErrors).length ? respond.error.message : null;
  return (
    <form
      className="flex flex-col gap-4"
      aria-label="Respond to the dispute"
      onSubmit={(event) => {
        event.preventDefault();
        respond.mutate({ submit: true });
      }}
    >
      <TextArea
        label="Your response"
        hint="Why the payment was legitimate: what was bought, by whom, and what was delivered."
        value={text}
        onChange={setText}
        error={fieldErrors["evidence.uncategorizedText"]}
      />
      <TextArea
        label="Product or service description"
        hint="Optional: what the payer bought."
        value={description}
        onChange={setDescription}
        error={fieldErrors["evidence.productDescription"]}
      />
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={attachPack}
          disabled={!packAvailable && !packAttached}
          onChange={(event) => setAttachPack(event.target.checked)}
          className="mt-0.5 accent-indigo-600"
        />
        <span>
          Attach the agent evidence pack
          <span className="block text-xs text-slate-600">
            The signed record of the agent, its authorization and the receipt, shown above.
          </span>
        </span>
      </label>
      {generalError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {generalError}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" pending={respond.isPending && respond.variables?.submit === true}>
          Submit evidence
        </Button>
        <Button onClick={() => respond.mutate({ submit: false })} pending={respond.isPending && respond.variables?.submit === false}>
          Save without submitting
        </Button>
      </div>
    </form>
  );
}
