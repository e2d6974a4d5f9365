// Card-form rules shared by the pay page's browser code and its server handler (pure: no I/O, no Node
// APIs), so the client refuses a bad number before submitting and the server refuses it again.

export type CardField = "cardNumber" | "expiry" | "cvc" | "name" | "billingCountry";
export type CardFieldErrors = Partial<Record<CardField, string>>;

export interface CardForm {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
  billingCountry: string;
}

export interface ValidCard {
  /** Digits only. */
  number: string;
  expMonth: number;
  /** Four-digit year. */
  expYear: number;
  cvc: string;
  name: string;
  billingCountry: string;
}

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, "");
}

/** The Luhn (mod 10) checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardBrand = "visa" | "mastercard" | "amex" | "unknown";

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  return "unknown";
}

/** "4242424242424242" -> "4242 4242 4242 4242" (Amex: 4-6-5), at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = digitsOnly(value).slice(0, 19);
  if (cardBrand(digits) === "amex") {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(" ");
  }
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** Typing "123" becomes "12 / 3"; deleting back past the slash works because only digits are kept. */
export function formatExpiry(value: string): string {
  const digits = digitsOnly(value).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) return `0${digits} / `;
  if (digits.length < 3) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Parses "MM/YY" (spaces allowed) into month and four-digit year, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

/** A card is good through the last day of its expiry month. */
export function expiryInPast(month: number, year: number, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && month < currentMonth);
}

export function validateCard(
  form: CardForm,
  now: Date = new Date(),
): { ok: true; card: ValidCard } | { ok: false; errors: CardFieldErrors } {
  const errors: CardFieldErrors = {};
  const number = digitsOnly(form.cardNumber ?? "");
  if (!number) errors.cardNumber = "Enter your card number.";
  else if (/[^\d\s-]/.test(form.cardNumber) || number.length < 12 || number.length > 19)
    errors.cardNumber = "Your card number is incomplete.";
  else if (!luhnValid(number)) errors.cardNumber = "Your card number is invalid.";

  const expiry = parseExpiry(form.expiry ?? "");
  if (!form.expiry?.trim()) errors.expiry = "Enter the expiry date.";
  else if (!expiry) errors.expiry = "Enter the expiry date as MM / YY.";
  else if (expiryInPast(expiry.month, expiry.year, now)) errors.expiry = "Your card's expiry date is in the past.";
  else if (expiry.year > now.getUTCFullYear() + 20) errors.expiry = "Your card's expiry year is invalid.";

  const cvc = (form.cvc ?? "").trim();
  const cvcLength = cardBrand(number) === "amex" ? 4 : 3;
  if (!cvc) errors.cvc = "Enter the security code.";
  else if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) errors.cvc = `The security code is ${cvcLength} digits.`;

  const name = (form.name ?? "").trim();
  if (!name) errors.name = "Enter the name on the card.";
  else if (name.length > 100 || /[\u0000-\u001f]/.test(name)) errors.name = "Enter the name as it appears on the card.";

  const country = (form.billingCountry ?? "").trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) errors.billingCountry = "Choose your billing country.";

  if (Object.keys(errors).length > 0 || !expiry) return { ok: false, errors };
  return { ok: true, card: { number, expMonth: expiry.month, expYear: expiry.year, cvc, name, billingCountry: country } };
}
