import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";
import { CHECKOUT_STATUSES } from "./transitions";
import { SoldLineItem } from "../orders/schemas";

const Amount = z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT);
const Url = z
  .string()
  .max(2048)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), "must be an http(s) URL");

const Quantity = z.number().int().min(1).max(10_000);

export const LineItem = z
  .object({
    name: z.string().min(1).max(256),
    quantity: Quantity,
    unitAmount: z.number().int("must be an integer in minor units").min(0).max(MAX_AMOUNT),
  })
  .strict();

/** A line priced from the catalog (docs/products.md): the product's name and unitAmount are copied in. */
export const CatalogLineItem = z
  .object({
    productId: z.string().regex(/^prd_[0-9A-Za-z]{1,64}$/, "must be a product id (prd_...)"),
    quantity: Quantity,
  })
  .strict();

const CheckoutLineItem = z.union([CatalogLineItem, LineItem], {
  error: "must be { productId, quantity } or { name, quantity, unitAmount }",
});

const isCatalogItem = (item: z.output<typeof CheckoutLineItem>): item is z.output<typeof CatalogLineItem> => "productId" in item;

/** What is sold and for how much: the part of a checkout's body a shared payment token's redemption takes too. */
export const SaleFields = {
  amount: Amount.optional(),
  /** Optional only when every item is a catalog item: then it is the products' currency. */
  currency: Currency.optional(),
  items: z.array(CheckoutLineItem).min(1).max(100).optional(),
  description: z.string().max(1000).optional(),
  metadata: Metadata.optional(),
  productRef: z
    .string()
    .regex(/^prd_[0-9A-Za-z]{1,64}$/, "must be a prd_ reference")
    .optional(),
};

export const OpenCheckoutBody = z
  .object({
    ...SaleFields,
    customerId: z.string().min(1).max(64).optional(),
    expiresInSeconds: z.number().int().min(1).max(86_400).optional(),
    successUrl: Url.optional(),
    cancelUrl: Url.optional(),
    /** Only a card-network agent whose signature was verified may pay it (docs/cards.md). */
    requireVerifiedAgent: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => checkSale(body, ctx, { currencyRequired: true }));

/**
 * Amount or items; the ad-hoc items' total (catalog prices are known only to openCheckout, which checks the
 * total of such items itself); a currency unless every item is a catalog item (or the caller has another
 * source for it: a shared payment token's own currency).
 */
export function checkSale(
  body: z.output<z.ZodObject<typeof SaleFields>>,
  ctx: z.RefinementCtx,
  options: { currencyRequired: boolean },
): void {
  if (body.amount === undefined && body.items === undefined) {
    ctx.addIssue({ code: "custom", path: ["amount"], message: "either amount or items is required" });
    return;
  }
  const catalogPriced = body.items?.some(isCatalogItem) ?? false;
  if (options.currencyRequired && body.currency === undefined && !(body.items?.every(isCatalogItem) ?? false)) {
    ctx.addIssue({ code: "custom", path: ["currency"], message: "required (optional only when every item is a { productId, quantity })" });
  }
  // Catalog prices are known only to openCheckout, which checks the total of such items itself.
  if (body.items && !catalogPriced) {
    const total = body.items.reduce((sum, item) => sum + item.quantity * (item as z.output<typeof LineItem>).unitAmount, 0);
    if (total < 1 || total > MAX_AMOUNT) ctx.addIssue({ code: "custom", path: ["items"], message: `items must total 1..${MAX_AMOUNT}` });
    else if (body.amount !== undefined && body.amount !== total) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: `amount ${body.amount} differs from the items' total ${total}` });
    }
  }
}
export type OpenCheckoutInput = z.output<typeof OpenCheckoutBody>;

/** A test payment method, test card token or customer wallet (`cus_...`); the rail decides what it is. */
export const PaymentMethod = z.string().min(1).max(128);

/** Screened against SANCTIONED_COUNTRIES before any charge. */
export const BillingCountry = z
  .string()
  .regex(/^[a-zA-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code")
  .transform((value) => value.toUpperCase());

export const CaptureCheckoutBody = z.object({ paymentMethod: PaymentMethod, billingCountry: BillingCountry.optional() }).strict();
/** The API's body, and the name on card the hosted pay page collects (recorded as the billing name). */
export type CaptureCheckoutInput = z.output<typeof CaptureCheckoutBody> & { billingName?: string };

export const CancelCheckoutBody = z.object({}).strict();

export const ListCheckoutsQuery = ListQuery.extend({ status: z.enum(CHECKOUT_STATUSES).optional() }).strict();
export type ListCheckoutsInput = z.output<typeof ListCheckoutsQuery>;

// Responses.

export const CheckoutObject = z
  .object({
    id: z.string(),
    object: z.literal("checkout"),
    status: z.enum(CHECKOUT_STATUSES),
    amount: z.number().int(),
    currency: z.string(),
    items: z.array(SoldLineItem),
    description: z.string().nullable(),
    customerId: z.string().nullable(),
    /** The hosted pay page. */
    url: z.string(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    expiresAt: Timestamp,
    paymentIntentId: z.string(),
    orderId: z.string(),
    productRef: z.string().nullable(),
    requireVerifiedAgent: z.boolean(),
    livemode: z.boolean(),
    metadata: StoredMetadata,
    createdAt: Timestamp,
  })
  .meta({ id: "Checkout" });

export const CheckoutList = listOf(CheckoutObject, "CheckoutList");
