/** Largest amount of one checkout or payment, in minor units (Stripe's limit: 99,999,999). */
export const MAX_AMOUNT = 99_999_999;
