"use client";
// "Create paid resource": name, price (entered in major units, sent in minor units), currency, description, how it
// is priced (a fixed price, or by usage up to a maximum: x402's upto, which forwards to a URL), and what is sold:
// JSON content returned once paid, or a URL (and the method) the paid request is forwarded to, and whether it is
// listed in the discovery catalogs; then, for a forwarded one, its forwarding secret, shown ONCE (the
// merchant's server verifies each forward with it).
// The same createPaidResource as POST /v1/paid_resources (docs/x402.md).
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { PAID_RESOURCE_METHODS } from "@/lib/paid-resources/schemas";
import { CopyableValue } from "../CopyableValue";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { SelectField } from "../SelectField";
import { CatalogFields } from "../CatalogFields";
import { FieldError, TextField } from "../TextField";
import { readPricing, type PricingProblems, type Scheme } from "./pricing";
import { SchemeFields } from "./SchemeFields";

type LocalErrors = PricingProblems & { content?: string };

function emptyForm() {
  return {
    name: "",
    price: "",
    scheme: "exact" as Scheme,
    maxPrice: "",
    currency: "USD",
    description: "",
    target: "content" as "content" | "url",
    content: '{ "message": "Thanks for paying" }',
    url: "",
    method: "GET",
    replayable: true,
    listed: false,
  };
}

export function PaidResourceFormButton({ mode }: { mode: "test" | "live" }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(emptyForm);
  const [localError, setLocalError] = useState<LocalErrors>({});
  const [secret, setSecret] = useState<string | null>(null);
  const save = useDashboardMutation<Record<string, unknown>, { url: string | null; forwardingSecret?: string }>({
    path: "/api/dashboard/paid-resources",
    method: "POST",
    success: "Paid resource created.",
    toastErrors: false,
    // A forwarded resource's secret is shown once; a content one has nothing to verify and closes.
    onSuccess: (created) => (created.url && created.forwardingSecret ? setSecret(created.forwardingSecret) : setOpen(false)),
  });
  const start = () => {
    setSecret(null);
    setForm(emptyForm());
    setLocalError({});
    save.reset();
    setOpen(true);
  };
  const submit = () => {
    const pricing = readPricing(form);
    const problems: LocalErrors = { ...pricing.problems };
    let content: unknown;
    if (form.target === "content") {
      try {
        content = JSON.parse(form.content);
        if (content === null) problems.content = "Enter a JSON value other than null.";
      } catch {
        problems.content = "Enter valid JSON.";
      }
    }
    setLocalError(problems);
    if (Object.values(problems).some(Boolean)) return;
    const description = form.description.trim();
    save.mutate({
      name: form.name.trim(),
      ...pricing.body,
      currency: form.currency,
      ...(description ? { description } : {}),
      ...(form.target === "content" ? { content } : { url: form.url.trim(), method: form.method }),
      replayable: form.replayable,
      listed: form.listed,
    });
  };
  const fieldErrors = save.error?.fieldErrors ?? {};
  const set = (field: Field) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  return (
    <DialogButton
      trigger={{ children: "Create paid resource", variant: "primary" }}
      open={open}
      onOpen={start}
      onClose={() => setOpen(false)}
      title={secret ? "Save your forwarding secret" : `Create a ${mode} paid resource`}
      description={
        secret
          ? "Each paid request forwarded to your URL is signed with it (x-service-signature): verify it with verifyForwardedRequest. This is the only time it is shown; if it is lost, rotate it (POST /v1/paid_resources/:id/rotate-forwarding-secret)."
          : "Sold publicly over x402 at /x402/r/:id (USD prices) and over MPP at /mpp/r/:id; the payment is the credential."
      }
      action={{ label: "Create paid resource", pending: save.isPending, onClick: submit }}
      done={secret ? {} : undefined}
      form
      error={messageOfNoField(save.error)}
    >
      {secret ? (
        <CopyableValue value={secret} />
      ) : (
        <PaidResourceFields form={form} setForm={setForm} set={set} localError={localError} fieldErrors={fieldErrors} />
      )}
    </DialogButton>
  );
}

type Form = ReturnType<typeof emptyForm>;
type Field = "name" | "price" | "maxPrice" | "currency" | "description" | "content" | "url" | "method";

/** What a paid resource is: its catalog fields, and what is sold (JSON content, or a forward URL and method). */
function PaidResourceFields({
  form,
  setForm,
  set,
  localError,
  fieldErrors,
}: {
  form: Form;
  setForm: (update: (f: Form) => Form) => void;
  set: (field: Field) => (value: string) => void;
  localError: LocalErrors;
  fieldErrors: Record<string, string | undefined>;
}) {
  const upto = form.scheme === "upto";
  return (
    <>
      <CatalogFields
        draft={form}
        set={set}
        pricePlaceholder={upto ? "0.01" : "0.05"}
        priceLabel={upto ? "Price per unit" : "Price"}
        errors={{
          name: fieldErrors.name,
          price: localError.price ?? (upto ? fieldErrors.unitAmount : fieldErrors.amount),
          description: fieldErrors.description,
        }}
      />
      <SchemeFields
        scheme={form.scheme}
        // upto is charged by the usage the merchant's server reports, so it forwards the request.
        onSchemeChange={(scheme) => setForm((f) => ({ ...f, scheme, target: scheme === "upto" ? "url" : f.target }))}
        maxPrice={form.maxPrice}
        onMaxPriceChange={set("maxPrice")}
        currency={form.currency}
        maxError={localError.maxAmount ?? fieldErrors.maxAmount}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-700">Once paid</legend>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="paid-resource-target"
            checked={form.target === "content"}
            disabled={upto}
            onChange={() => setForm((f) => ({ ...f, target: "content" }))}
          />
          {upto ? "Return this JSON content (fixed prices only)" : "Return this JSON content"}
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="paid-resource-target"
            checked={form.target === "url"}
            onChange={() => setForm((f) => ({ ...f, target: "url" }))}
          />
          Forward the request to my URL
        </label>
      </fieldset>
      {form.target === "content" ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="paid-resource-content" className="text-sm font-medium text-slate-700">
            Content (JSON)
          </label>
          <textarea
            id="paid-resource-content"
            value={form.content}
            onChange={(event) => set("content")(event.target.value)}
            rows={4}
            aria-invalid={Boolean(localError.content ?? fieldErrors.content)}
            aria-describedby={(localError.content ?? fieldErrors.content) ? "paid-resource-content-error" : undefined}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
          />
          <FieldError id="paid-resource-content-error" error={localError.content ?? fieldErrors.content} />
        </div>
      ) : (
        <>
          <TextField
            label="Forward URL"
            value={form.url}
            onChange={set("url")}
            maxLength={2048}
            placeholder="https://api.example.com/report"
            error={fieldErrors.url}
          />
          <SelectField label="Method" value={form.method} onChange={set("method")} options={PAID_RESOURCE_METHODS} />
        </>
      )}
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5"
          checked={form.replayable}
          onChange={(event) => setForm((f) => ({ ...f, replayable: event.target.checked }))}
        />
        <span>
          Keep each paid answer (encrypted, for a day) so that a payer whose answer was lost gets it again with the same payment. Clear this
          for answers that must not be stored: a retry is then refused, never charged twice.
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5"
          checked={form.listed}
          onChange={(event) => setForm((f) => ({ ...f, listed: event.target.checked }))}
        />
        <span>
          List it in this deployment&apos;s discovery catalogs (x402&apos;s bazaar and MPP&apos;s OpenAPI document), so that agents can find
          it.
        </span>
      </label>
    </>
  );
}
