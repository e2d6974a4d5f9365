// Opens a checkout with its PaymentIntent (requires_payment) and order (pending), in one transaction.
// Catalog items ({ productId, quantity }) are priced from the merchant's products (price-items.ts).
import { sqlIn, type Db } from "../db";
import { NotFoundError, ValidationError } from "../errors";
import { Prisma, type Checkout, type PaymentIntent } from "../generated/prisma/client";
import { createId } from "../ids";
import { plannedPaymentIntent } from "../payments/open-payment-intent";
import type { PaymentSource } from "../payment-sources";
import { priceCheckout } from "./price-items";
import type { Scope } from "../scope";
import { fuse, insertRow, returning, takeReturned, type PlannedInsert } from "../sql-model";
import type { OpenCheckoutInput } from "./schemas";
import { serializeCheckout } from "./serialize";

const DEFAULT_EXPIRES_IN_SECONDS = 1800;
const LIVE_MIN_EXPIRES_IN_SECONDS = 60;

/** Paywall checkouts' PaymentIntents also record what they pay for and who pays (lib/paywall). */
export interface PaywallPaymentFields {
  sku: string;
  payerMerchantId?: string;
  payerRequestKey?: string | null;
}

/** How the checkout came (its PaymentIntent's and order's `source`), and a paywall payment's own fields. */
export interface CheckoutOrigin {
  source: PaymentSource;
  paywall?: PaywallPaymentFields;
  /** A sale of a hosted paid resource (xr_), and the payer as its protocol names it (x402: the signer's address). */
  sale?: { paidResourceId?: string | null; payer?: string | null };
  /** The PaymentIntent's id, reserved before the sale (x402 upto: the forward to the merchant named it). */
  paymentIntentId?: string;
}

export async function openCheckout(tx: Db, scope: Scope, input: OpenCheckoutInput, origin: CheckoutOrigin) {
  return serializeCheckout((await openCheckoutRows(tx, scope, input, origin, false)).checkout);
}

/**
 * The checkout opened, as its row, with its PaymentIntent's row when `withPaymentIntent` (both as the insert wrote
 * them, in the same statement): for a capture in the same transaction (CaptureHooks.opened).
 */
export async function openCheckoutRows<P extends boolean>(
  tx: Db,
  scope: Scope,
  input: OpenCheckoutInput,
  origin: CheckoutOrigin,
  withPaymentIntent: P,
): Promise<{ checkout: Checkout; paymentIntent: P extends true ? PaymentIntent : undefined }> {
  const planned = await planCheckoutRows(tx, scope, input, origin);
  let pi: PaymentIntent | undefined;
  const piWrite = withPaymentIntent
    ? returning(planned.paymentIntent, Prisma.PaymentIntentScalarFieldEnum, (row) => (pi = row as PaymentIntent))
    : planned.paymentIntent;
  const before = [piWrite, planned.order];
  const opened = fuse(planned.checkout, before);
  const [checkout] = await sqlIn(tx).rows<Checkout & Record<string, unknown>>(opened.statement, [...opened.values]);
  takeReturned(checkout, before);
  return { checkout, paymentIntent: pi as P extends true ? PaymentIntent : undefined };
}

/** What opening a checkout inserts, planned (each INSERT ends in RETURNING its row): its PaymentIntent, order and checkout. */
export interface PlannedCheckoutRows {
  paymentIntent: PlannedInsert;
  order: PlannedInsert;
  checkout: PlannedInsert;
}

/**
 * The checks and prices of openCheckoutRows, and its three inserts planned, independent of one another: to run in one
 * statement (openCheckoutRows), or inside another (x402's sale, lib/x402/settle-payment.ts). Without a customer or
 * catalog items, it reads nothing.
 */
export async function planCheckoutRows(
  tx: Db,
  scope: Scope,
  input: OpenCheckoutInput,
  origin: CheckoutOrigin,
): Promise<PlannedCheckoutRows> {
  const { source, paywall, sale } = origin;
  const expiresIn = input.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS;
  if (scope.livemode && expiresIn < LIVE_MIN_EXPIRES_IN_SECONDS) {
    throw new ValidationError("expiresInSeconds must be 60..86400 in live mode.", [
      { path: "expiresInSeconds", message: "60..86400 in live mode" },
    ]);
  }
  if (input.customerId) {
    const customer = await tx.customer.findFirst({
      where: { id: input.customerId, merchantId: scope.merchantId, livemode: scope.livemode },
      select: { id: true },
    });
    if (!customer) throw new NotFoundError("customer", input.customerId);
  }
  const { items, amount, currency } = await priceCheckout(tx, scope, input);
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const ids = {
    checkout: createId("checkout"),
    paymentIntent: origin.paymentIntentId ?? createId("paymentIntent"),
    order: createId("order"),
  };
  const now = new Date();
  const common = { ...inScope, amount, currency, customerId: input.customerId ?? null, createdAt: now, updatedAt: now };

  // Three independent inserts, run in one statement (lib/sql-model.ts fuse).
  const paymentIntent = plannedPaymentIntent(
    {
      ...common,
      ...paywall,
      ...(sale ? { paidResourceId: sale.paidResourceId ?? null, payer: sale.payer ?? null } : {}),
      checkoutId: ids.checkout,
      orderId: ids.order,
      source,
    },
    ids.paymentIntent,
  );
  const order = insertRow("orders", Prisma.OrderScalarFieldEnum, {
    ...common,
    id: ids.order,
    status: "pending",
    checkoutId: ids.checkout,
    paymentIntentId: ids.paymentIntent,
    items,
    source,
  });
  const insert = insertRow("checkouts", Prisma.CheckoutScalarFieldEnum, {
    ...common,
    id: ids.checkout,
    status: "open",
    items,
    description: input.description ?? null,
    successUrl: input.successUrl ?? null,
    cancelUrl: input.cancelUrl ?? null,
    metadata: input.metadata ?? {},
    productRef: input.productRef ?? null,
    requireVerifiedAgent: input.requireVerifiedAgent === true,
    paymentIntentId: ids.paymentIntent,
    orderId: ids.order,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
  });
  return { paymentIntent, order, checkout: insert };
}
