// Money for people: integer minor units -> "$10.00", "¥1,000", "KWD 1.500", with the currency's own
// number of decimals (ISO 4217 via Intl), and meters' sub-cent base units -> "$0.025". Pure, usable on the
// server and in the browser: every amount a person reads goes through here.

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

/** Meters count in base units (`baseUnitsPerMinor` of them make one minor unit), so an amount can be a fraction
 * of a cent: 2,500,000 base units at 1,000,000 per cent -> "$0.025". Exact: as many decimals as the unit needs. */
export function formatBaseUnits(base: number, baseUnitsPerMinor: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = currencyDigits(code);
  const extra = Math.ceil(Math.log10(baseUnitsPerMinor));
  const major = base / baseUnitsPerMinor / 10 ** digits;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.min(digits + extra, 20),
    }).format(major);
  } catch {
    return `${major} ${code}`;
  }
}
