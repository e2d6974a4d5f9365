// The MCP server's tools as data (docs/oauth-and-mcp.md): each one's name, what the client is told (title,
// description, input and output schemas, annotations), the permission a restricted API key needs to see and call
// it (docs/restricted-keys.md), whether it reads or writes, and its work: a domain function for the caller's
// merchant and mode. lib/mcp/tools.ts registers them in one loop and runs reads on the pool and writes through the
// request pipeline's idempotent mutation.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Db } from "../db";
import { getCheckout } from "../checkouts/get-checkout";
import { openCheckout } from "../checkouts/open-checkout";
import { getOrder, getPaymentIntent, listOrders, listPaymentIntents } from "../checkouts/read-orders-and-payments";
import { OpenCheckoutBody } from "../checkouts/schemas";
import { listEvents } from "../events/list-events";
import { EVENT_TYPES } from "../events/types";
import { getBalance } from "../ledger/get-balance";
import type { Permission } from "../merchants/permissions";
import { getMeter } from "../meters/get-meter";
import { listMeters } from "../meters/list-meters";
import { METER_STATUSES } from "../meters/schemas";
import { ORDER_STATUSES } from "../orders/transitions";
import { PAYMENT_SOURCES } from "../payment-sources";
import { PAYMENT_INTENT_STATUSES } from "../payments/transitions";
import { createProduct } from "../products/create-product";
import { listProducts } from "../products/list-products";
import { CreateProductBody } from "../products/schemas";
import { createRefund } from "../refunds/create-refund";
import { CreateRefundBody } from "../refunds/schemas";
import type { Scope } from "../scope";
import { parseOrThrow } from "../validation/parse";
import { listFailedDeliveries } from "../webhooks/list-failed-deliveries";

const Id = z.string().min(1).max(64);
const Limit = z.number().int().min(1).max(100).optional().describe("How many (1..100, default 20)");
const StartingAfter = z.string().min(1).max(64).optional().describe("Cursor: the id of the last object of the previous page");
const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("Send a fresh unique key per intended operation and the SAME key when retrying it: the operation then happens at most once");
const Metadata = z.record(z.string(), z.string()).optional();

const AnyObject = z.looseObject({ id: z.string(), object: z.string(), livemode: z.boolean() });
const ListOf = (item: z.ZodType) => z.looseObject({ object: z.literal("list"), data: z.array(item), hasMore: z.boolean() });
const CheckoutOut = z.looseObject({
  id: z.string(),
  object: z.literal("checkout"),
  livemode: z.boolean(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  url: z.string().describe("The hosted payment page: the payment link to send to the payer"),
  paymentIntentId: z.string(),
  orderId: z.string(),
  expiresAt: z.string(),
});
const Money = z.object({ currency: z.string(), amount: z.number() });
const BalanceOut = z.object({ object: z.literal("balance"), livemode: z.boolean(), pending: z.array(Money), payable: z.array(Money) });

type Annotations = Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">>;
const READ: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates something; retried with its idempotencyKey it happens once. */
const CREATE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Moves money out (a refund cannot be undone). */
const DESTRUCTIVE: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** A tool's definition: what the client sees, the permission it needs, and its work. */
export interface ToolDefinition<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  permission: Permission;
  title: string;
  /** A function of the caller's mode where the description names it. */
  description: string | ((mode: "live" | "test") => string);
  inputSchema: I;
  outputSchema: z.ZodType;
  annotations: Annotations;
  /**
   * "read": on the pool, with the `read` scope. "write": with the `write` scope, in the request pipeline's idempotent
   * mutation (one transaction with its stored response), its `idempotencyKey` argument claimed first.
   */
  access: "read" | "write";
  /** The work, for the caller's merchant and mode (a write's arguments come without `idempotencyKey`). */
  run: (db: Db, scope: Scope, args: z.output<z.ZodObject<I>>) => Promise<unknown>;
}

/** One definition, type-checked against its own input schema. */
function tool<I extends z.ZodRawShape>(definition: ToolDefinition<I>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

const page = (args: { limit?: number; startingAfter?: string }) => ({ limit: args.limit ?? 20, startingAfter: args.startingAfter });

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: "create_checkout",
    permission: ["checkouts", "write"],
    title: "Create a checkout (payment link)",
    description: (mode) =>
      `Opens a hosted checkout in ${mode} mode and returns it; its \`url\` is the payment link to send to the payer. Give amount (minor units, e.g. cents) and currency, or items. Needs the write scope.`,
    inputSchema: {
      amount: z.number().int().min(1).optional().describe("Total in minor units (e.g. 1999 = 19.99)"),
      currency: z.string().min(3).max(3).optional().describe("ISO 4217, e.g. usd"),
      items: z
        .array(
          z.union([
            z.object({ name: z.string(), quantity: z.number().int(), unitAmount: z.number().int() }),
            z.object({ productId: z.string(), quantity: z.number().int() }),
          ]),
        )
        .optional()
        .describe("Line items: ad-hoc { name, quantity, unitAmount } or catalog { productId, quantity }"),
      description: z.string().max(1000).optional(),
      customerId: Id.optional(),
      expiresInSeconds: z.number().int().optional().describe("Default 1800"),
      successUrl: z.string().optional(),
      cancelUrl: z.string().optional(),
      metadata: Metadata,
      idempotencyKey: IdempotencyKey,
    },
    outputSchema: CheckoutOut,
    annotations: CREATE,
    access: "write",
    run: (tx, scope, args) => openCheckout(tx, scope, parseOrThrow(OpenCheckoutBody, args), { source: "mcp" }),
  }),
  tool({
    name: "get_checkout",
    permission: ["checkouts", "read"],
    title: "Get a checkout",
    description: "One checkout by id (cs_...).",
    inputSchema: { id: Id },
    outputSchema: CheckoutOut,
    annotations: READ,
    access: "read",
    run: (db, scope, { id }) => getCheckout(db, scope, id),
  }),
  tool({
    name: "get_order",
    permission: ["orders", "read"],
    title: "Get an order",
    description: "One order by id (ord_...).",
    inputSchema: { id: Id },
    outputSchema: AnyObject,
    annotations: READ,
    access: "read",
    run: (db, scope, { id }) => getOrder(db, scope, id),
  }),
  tool({
    name: "list_orders",
    permission: ["orders", "read"],
    title: "List orders",
    description: "Orders, newest first.",
    inputSchema: {
      limit: Limit,
      startingAfter: StartingAfter,
      status: z.enum(ORDER_STATUSES).optional(),
      source: z.enum(PAYMENT_SOURCES).optional(),
    },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listOrders(db, scope, { ...page(args), status: args.status, source: args.source }),
  }),
  tool({
    name: "get_payment",
    permission: ["payment_intents", "read"],
    title: "Get a payment",
    description: "One PaymentIntent by id (pi_...).",
    inputSchema: { id: Id },
    outputSchema: AnyObject,
    annotations: READ,
    access: "read",
    run: (db, scope, { id }) => getPaymentIntent(db, scope, id),
  }),
  tool({
    name: "list_payments",
    permission: ["payment_intents", "read"],
    title: "List payments",
    description: "PaymentIntents, newest first.",
    inputSchema: {
      limit: Limit,
      startingAfter: StartingAfter,
      status: z.enum(PAYMENT_INTENT_STATUSES).optional(),
      source: z.enum(PAYMENT_SOURCES).optional(),
    },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listPaymentIntents(db, scope, { ...page(args), status: args.status, source: args.source }),
  }),
  tool({
    name: "create_refund",
    permission: ["refunds", "write"],
    title: "Refund a payment",
    description:
      "Refunds a captured payment in full or in part (amount in minor units; default: what is left). Give paymentIntentId or orderId. Money leaves the merchant's balance: this cannot be undone. Needs the write scope.",
    inputSchema: {
      paymentIntentId: Id.optional(),
      orderId: Id.optional(),
      amount: z.number().int().min(1).optional(),
      reason: z.string().min(1).max(500).optional(),
      idempotencyKey: IdempotencyKey,
    },
    outputSchema: AnyObject,
    annotations: DESTRUCTIVE,
    access: "write",
    run: (tx, scope, args) => createRefund(tx, scope, parseOrThrow(CreateRefundBody, args)),
  }),
  tool({
    name: "get_balance",
    permission: ["balance", "read"],
    title: "Get the balance",
    description: "Pending and payable funds per currency.",
    inputSchema: {},
    outputSchema: BalanceOut,
    annotations: READ,
    access: "read",
    run: (db, scope) => getBalance(db, scope),
  }),
  tool({
    name: "list_products",
    permission: ["products", "read"],
    title: "List products",
    description: "Catalog products, newest first.",
    inputSchema: { limit: Limit, startingAfter: StartingAfter, active: z.boolean().optional() },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listProducts(db, scope, { ...page(args), active: args.active }),
  }),
  tool({
    name: "create_product",
    permission: ["products", "write"],
    title: "Create a product",
    description: "Adds a catalog product (name, unitAmount in minor units, currency). Needs the write scope.",
    inputSchema: {
      name: z.string().min(1).max(256),
      description: z.string().max(1000).optional(),
      unitAmount: z.number().int().min(0),
      currency: z.string().min(3).max(3),
      metadata: Metadata,
      idempotencyKey: IdempotencyKey,
    },
    outputSchema: AnyObject,
    annotations: CREATE,
    access: "write",
    run: (tx, scope, args) => createProduct(tx, scope, parseOrThrow(CreateProductBody, args)),
  }),
  tool({
    name: "list_meters",
    permission: ["meters", "read"],
    title: "List meters",
    description: "Usage meters, newest first.",
    inputSchema: { limit: Limit, startingAfter: StartingAfter, status: z.enum(METER_STATUSES).optional(), customerId: Id.optional() },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listMeters(db, scope, { ...page(args), status: args.status, customerId: args.customerId }),
  }),
  tool({
    name: "get_meter",
    permission: ["meters", "read"],
    title: "Get a meter",
    description: "One meter by id (mtr_...).",
    inputSchema: { id: Id },
    outputSchema: AnyObject,
    annotations: READ,
    access: "read",
    run: (db, scope, { id }) => getMeter(db, scope, id),
  }),
  tool({
    name: "list_events",
    permission: ["events", "read"],
    title: "Recent events",
    description: "Events (payment captured, refund created, ...), newest first.",
    inputSchema: { limit: Limit, startingAfter: StartingAfter, type: z.enum(EVENT_TYPES).optional() },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listEvents(db, scope, { ...page(args), type: args.type }),
  }),
  tool({
    name: "list_failed_deliveries",
    permission: ["webhook_endpoints", "read"],
    title: "Failed webhook deliveries",
    description: "Webhook deliveries that failed every retry, newest first, with their last attempt.",
    inputSchema: { limit: Limit },
    outputSchema: ListOf(AnyObject),
    annotations: READ,
    access: "read",
    run: (db, scope, args) => listFailedDeliveries(db, scope, args.limit ?? 20),
  }),
];
