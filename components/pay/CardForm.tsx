"use client";
// The card form. With JavaScript: formats as you type, validates (Luhn, expiry) before sending, submits
// once (pending state), and shows the server's answer in a live region. Without JavaScript it is a plain
// HTML form posting to the same endpoint, which redirects back with the outcome.
import { useRef, useState, type FormEvent } from "react";
import {
  cardBrand,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
  validateCard,
  type CardField,
  type CardFieldErrors,
  type CardForm as CardValues,
} from "../../lib/pay/card";
import { useHydrated } from "../useHydrated";

export interface CountryOption {
  code: string;
  name: string;
}

interface Props {
  /** The submit endpoint: /pay/:checkoutId/submit or /pay/paywall/submit?<terms>. */
  action: string;
  formToken: string;
  payLabel: string;
  countries: CountryOption[];
  defaultCountry: string;
  initialMessage?: string;
  initialFieldErrors?: CardFieldErrors;
  initialCountry?: string;
  footnote?: string;
}

const FIELD_ORDER: CardField[] = ["cardNumber", "expiry", "cvc", "name", "billingCountry"];

const inputBase =
  "block w-full bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-400 outline-none focus:z-10 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid=true]:text-red-700 disabled:bg-slate-50";

export function CardForm(props: Props) {
  const [values, setValues] = useState<CardValues>({
    cardNumber: "",
    expiry: "",
    cvc: "",
    name: "",
    billingCountry: props.initialCountry ?? props.defaultCountry,
  });
  const [errors, setErrors] = useState<CardFieldErrors>(props.initialFieldErrors ?? {});
  const [message, setMessage] = useState(props.initialMessage ?? "");
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const submitting = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = (field: CardField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const focusFirstError = (found: CardFieldErrors) => {
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return; // one payment attempt at a time
    const checked = validateCard(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      const count = Object.keys(checked.errors).length;
      setMessage(`Check ${count === 1 ? "1 field" : `${count} fields`}: ${Object.values(checked.errors).join(" ")}`);
      focusFirstError(checked.errors);
      return;
    }
    submitting.current = true;
    setPending(true);
    setMessage("");
    try {
      const res = await fetch(props.action, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ ...values, formToken: props.formToken }),
      });
      const reply = (await res.json().catch(() => ({}))) as { redirect?: string; message?: string; fieldErrors?: CardFieldErrors };
      if (reply.redirect) {
        window.location.assign(reply.redirect); // stays pending until the next page shows
        return;
      }
      setErrors(reply.fieldErrors ?? {});
      setMessage(reply.message ?? "Something went wrong. Nothing was charged; try again.");
      focusFirstError(reply.fieldErrors ?? {});
    } catch {
      setMessage("We could not reach the payment server. Check your connection and try again; you will never be charged twice.");
    }
    submitting.current = false;
    setPending(false);
  }

  const brand = cardBrand(digitsOnly(values.cardNumber));
  const describedBy = (field: CardField, hint?: string) =>
    [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <form
      ref={formRef}
      method="post"
      action={props.action}
      onSubmit={onSubmit}
      noValidate={hydrated}
      aria-labelledby="card-form-title"
      className="flex flex-col gap-5"
    >
      <h2 id="card-form-title" className="text-lg font-semibold text-slate-900">
        Pay with card
      </h2>
      <input type="hidden" name="formToken" value={props.formToken} />

      <div aria-live="assertive" aria-atomic="true" className="empty:hidden" data-testid="form-message">
        {message && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800">
            {message}
          </p>
        )}
      </div>

      <fieldset className="flex flex-col gap-1.5" disabled={pending}>
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Card information</legend>
        <div className="overflow-hidden rounded-md border border-slate-300 shadow-sm has-[[aria-invalid=true]]:border-red-400">
          <div className="relative">
            <label htmlFor="cardNumber" className="sr-only">
              Card number
            </label>
            <input
              id="cardNumber"
              name="cardNumber"
              className={`${inputBase} pr-20`}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              required
              pattern="[0-9 \-]{12,23}"
              maxLength={23}
              value={values.cardNumber}
              onChange={(event) => set("cardNumber", formatCardNumber(event.target.value))}
              aria-invalid={errors.cardNumber ? true : undefined}
              aria-describedby={describedBy("cardNumber")}
            />
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs font-bold uppercase tracking-wide text-slate-500"
            >
              {brand === "unknown" ? "" : brand === "mastercard" ? "MC" : brand}
            </span>
          </div>
          <div className="grid grid-cols-2 border-t border-slate-300">
            <div className="border-r border-slate-300">
              <label htmlFor="expiry" className="sr-only">
                Expiry date (MM / YY)
              </label>
              <input
                id="expiry"
                name="expiry"
                className={inputBase}
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder="MM / YY"
                required
                pattern="\s*\d{1,2}\s*/\s*\d{2}\s*"
                maxLength={7}
                value={values.expiry}
                onChange={(event) =>
                  set(
                    "expiry",
                    event.target.value.length < values.expiry.length
                      ? event.target.value.replace(/[\s/]+$/, "")
                      : formatExpiry(event.target.value),
                  )
                }
                aria-invalid={errors.expiry ? true : undefined}
                aria-describedby={describedBy("expiry")}
              />
            </div>
            <div>
              <label htmlFor="cvc" className="sr-only">
                Security code (CVC)
              </label>
              <input
                id="cvc"
                name="cvc"
                className={inputBase}
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder="CVC"
                required
                pattern="\d{3,4}"
                maxLength={4}
                value={values.cvc}
                onChange={(event) => set("cvc", digitsOnly(event.target.value).slice(0, 4))}
                aria-invalid={errors.cvc ? true : undefined}
                aria-describedby={describedBy("cvc")}
              />
            </div>
          </div>
        </div>
        {(["cardNumber", "expiry", "cvc"] as const).map((field) =>
          errors[field] ? (
            <p key={field} id={`${field}-error`} className="text-sm text-red-700">
              {errors[field]}
            </p>
          ) : null,
        )}
      </fieldset>

      <div className="flex flex-col gap-1.5">
        <label htmlFor="name" className="text-sm font-medium text-slate-700">
          Name on card
        </label>
        <input
          id="name"
          name="name"
          className={`${inputBase} rounded-md border border-slate-300 shadow-sm aria-[invalid=true]:border-red-400`}
          autoComplete="cc-name"
          required
          maxLength={100}
          disabled={pending}
          value={values.name}
          onChange={(event) => set("name", event.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy("name")}
        />
        {errors.name && (
          <p id="name-error" className="text-sm text-red-700">
            {errors.name}
          </p>
        )}
      </div>

      <div className="flex flex-col gap-1.5">
        <label htmlFor="billingCountry" className="text-sm font-medium text-slate-700">
          Billing country
        </label>
        <select
          id="billingCountry"
          name="billingCountry"
          className={`${inputBase} rounded-md border border-slate-300 shadow-sm aria-[invalid=true]:border-red-400`}
          autoComplete="country"
          required
          disabled={pending}
          value={values.billingCountry}
          onChange={(event) => set("billingCountry", event.target.value)}
          aria-invalid={errors.billingCountry ? true : undefined}
          aria-describedby={describedBy("billingCountry")}
        >
          {props.countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
        {errors.billingCountry && (
          <p id="billingCountry-error" className="text-sm text-red-700">
            {errors.billingCountry}
          </p>
        )}
      </div>

      <button
        type="submit"
        disabled={pending}
        aria-disabled={pending}
        className="mt-1 inline-flex h-12 w-full items-center justify-center gap-2 rounded-md bg-[var(--brand,#4f46e5)] px-4 text-base font-semibold text-[var(--brand-text,#ffffff)] shadow-sm transition hover:brightness-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-wait disabled:opacity-70"
      >
        {pending ? (
          <>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 animate-spin" fill="none">
              <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.3" strokeWidth="4" />
              <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
            </svg>
            <span>Processing…</span>
          </>
        ) : (
          <span>Pay {props.payLabel}</span>
        )}
      </button>
      {props.footnote && <p className="text-center text-xs text-slate-500">{props.footnote}</p>}
    </form>
  );
}
