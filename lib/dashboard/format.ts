// Display formats of the dashboard (pure; server and browser): money, dates, status words.
export { formatMoney } from "../money/format";
import { ownValue } from "../own-key";
import { displayTimeZone } from "./time-zone";

const SPECIAL_LABELS: Record<string, string> = {
  requires_payment: "Requires payment",
  // A dispute's inquiry (a warning): named as such, not "Warning needs response".
  warning_needs_response: "Inquiry: needs response",
  warning_under_review: "Inquiry: under review",
  warning_closed: "Inquiry closed",
};

const SOURCE_LABELS: Record<string, string> = {
  api: "API",
  pay_page: "Pay page",
  paywall: "Paywall",
  meter: "Meter",
  spt: "Shared token",
  x402: "x402",
  mpp: "MPP",
  acp: "ACP",
  a2a: "A2A",
  ap2: "AP2",
  mcp: "MCP",
  visa: "Visa",
  mastercard: "Mastercard",
};

/** A payment's source as words: "pay_page" -> "Pay page", "x402" -> "x402". */
export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** "partially_refunded" -> "Partially refunded". */
export function statusLabel(status: string): string {
  const special = ownValue(SPECIAL_LABELS, status);
  if (special) return special;
  const words = status.replace(/[_.]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Nov 23, 2026, 4:05 PM UTC", or in the merchant's time zone with its name ("5:05 PM GMT+1"). */
export function formatDateTime(iso: string | Date, timeZone = displayTimeZone()): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const text = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(date);
  return text.replace(/ at /, ", ");
}

export function formatDate(iso: string | Date, timeZone = displayTimeZone()): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }).format(date);
}

/** Minor units -> the decimal string a person types ("1050" USD -> "10.50"). */
export function minorToInput(minor: number, digits: number): string {
  return (minor / 10 ** digits).toFixed(digits);
}

/** What a person typed ("10.5", "10,50") -> minor units, or null when it is not an amount. */
export function inputToMinor(text: string, digits: number): number | null {
  const normalized = text.trim().replace(",", ".");
  const pattern = digits > 0 ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
  if (!pattern.test(normalized)) return null;
  const [whole, fraction = ""] = normalized.split(".");
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || 0);
}
