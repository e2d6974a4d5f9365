// Billing countries for the pay page's select: ISO 3166-1 alpha-2 codes with English names from Intl.
// Sanctioned ones stay in the list on purpose: the server's screening answers them with a clear message.

import { COUNTRY_CODES } from "../countries";

export interface Country {
  code: string;
  name: string;
}

export { COUNTRY_CODES };

/** Every country, sorted by its English name. */
export function countryList(locale = "en"): Country[] {
  const names = new Intl.DisplayNames([locale], { type: "region" });
  return [...COUNTRY_CODES].map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, locale));
}

export function countryName(code: string, locale = "en"): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
