// Money for people: integer minor units -> "$10.00", "¥1,000", "KWD 1.500", with the currency's own
// number of decimals (ISO 4217 via Intl). Pure, usable on the server and in the browser.

export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function formatMoney(minor: number, currency: string, locale = "en-US"): string {
  const code = currency.toUpperCase();
  const digits = currencyDigits(code);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(minor / 10 ** digits);
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${code}`;
  }
}
