// Meters count in base units (a meter's `baseUnitsPerMinor` of them make one minor unit), so an amount can
// be a fraction of a cent: 2,500,000 base units at 1,000,000 per cent -> "$0.025". Pure, for display only.
import { currencyDigits } from "../pay/format-money";

export function formatBaseUnits(base: number, baseUnitsPerMinor: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = currencyDigits(code);
  const extra = Math.ceil(Math.log10(baseUnitsPerMinor));
  const major = base / baseUnitsPerMinor / 10 ** digits;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: code, minimumFractionDigits: digits, maximumFractionDigits: Math.min(digits + extra, 20) }).format(major);
  } catch {
    return `${major} ${code}`;
  }
}
