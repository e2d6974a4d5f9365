// How a PaymentIntent (and its order) came to be: docs/api-reference.md "One ledger under every protocol". Fixed when
// the PaymentIntent is created and never changed, so `?source=` filters are stable.
//
//   api       opened with POST /v1/checkouts (whoever then pays it, the API or the hosted page)
//   pay_page  a pay link opened in the dashboard, paid by a person on the hosted /pay page
//   paywall   a paywall payment (POST /v1/paywall/pay, or the hosted terms page /pay/paywall)
//   meter     a meter's settlement, retried payment or prepaid funding
//   spt       a shared payment token redeemed by the merchant (POST /v1/shared_payment_tokens/:id/redeem)
//   x402, mpp, acp, a2a, ap2, mcp   the protocol paths that settle into the same objects
//   visa, mastercard   a checkout paid by a card-network agent credential (docs/cards.md): the one exception to
//                      "fixed at creation": the merchant's checkout (source api) takes the network as its source in
//                      the transaction that captures it, so the captured PaymentIntent says how it was paid
export const PAYMENT_SOURCES = [
  "api",
  "pay_page",
  "paywall",
  "meter",
  "spt",
  "x402",
  "mpp",
  "acp",
  "a2a",
  "ap2",
  "mcp",
  "visa",
  "mastercard",
] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];
