// A payment method as a person reads it: "Visa •••• 4242", "Customer wallet", "x402 · 0x1234…abcd" instead
// of the ids the API records (pm_card_visa, cus_…, x402:eip155:84532:0x…). Pure; the raw id stays
// available to show beside it.
import { ownValue } from "../own-key";
import { FOREIGN_WALLET_METHOD, isCustomerWalletMethod, TEST_CARD_NUMBERS } from "../rails/test-cards";

export interface PaymentMethodDescription {
  /** "Visa •••• 4242" */
  label: string;
  kind: "card" | "wallet" | "x402" | "other";
}

const BRANDS: [RegExp, string][] = [
  [/^4/, "Visa"],
  [/^(5[1-5]|2[2-7])/, "Mastercard"],
  [/^3[47]/, "American Express"],
];

/** Test payment method id -> the card number the test rail knows it by (pm_card_visa -> 4242…4242). */
const TEST_CARD_BY_METHOD: Record<string, string> = Object.fromEntries(
  Object.entries(TEST_CARD_NUMBERS).map(([number, method]) => [method, number]),
);

function cardLabel(number: string): string {
  const brand = BRANDS.find(([prefix]) => prefix.test(number))?.[1] ?? "Card";
  return `${brand} •••• ${number.slice(-4)}`;
}

export function describePaymentMethod(paymentMethod: string): PaymentMethodDescription {
  const testCard = ownValue(TEST_CARD_BY_METHOD, paymentMethod);
  if (testCard) return { label: cardLabel(testCard), kind: "card" };
  if (paymentMethod === FOREIGN_WALLET_METHOD) return { label: "Customer wallet", kind: "wallet" };
  if (isCustomerWalletMethod(paymentMethod)) return { label: `Customer wallet · ${paymentMethod}`, kind: "wallet" };
  const x402 = /^x402:([a-z0-9]+:[0-9]+):(0x[0-9a-fA-F]{40})$/.exec(paymentMethod);
  if (x402) return { label: `x402 · ${x402[2].slice(0, 6)}…${x402[2].slice(-4)}`, kind: "x402" };
  return { label: paymentMethod, kind: "other" };
}
