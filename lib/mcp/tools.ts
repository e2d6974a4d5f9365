// The MCP server's tools (docs/oauth-and-mcp.md): the merchant's work through the same domain functions
// and error contract as /v1, for the caller's merchant and mode only (another merchant's object, or one
// of the other mode, is NOT_FOUND as in /v1).
//
// Scopes: `read` allows every read-only tool; `write` also allows create_checkout, create_refund and
// create_product. A call the token's scopes do not allow is a tool error FORBIDDEN (insufficient_scope).
// Permissions (docs/restricted-keys.md): each tool declares the (resource, level) a restricted API key needs; such
// a key lists only the tools it may call (it also needs `mcp` at the tool's level), and calling another is the tool
// error FORBIDDEN permission_denied. OAuth tokens and secret keys see every tool.
// Errors are tool results with isError and the error contract's JSON ({ error: { code, message, details } }).
// Money-moving tools take `idempotencyKey`: the same key with the same arguments answers the first
// result again (the API's idempotency store, scoped to the API key or the OAuth grant); with other
// arguments it is VALIDATION_ERROR, while the first still runs CONFLICT.
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AnySchema, ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { getDb, sql, transaction, type Db } from "../db";
import { DomainError } from "../errors";
import { toErrorResult } from "../http/errors";
import { outcomeOf, settleClaimOnError } from "../http/pipeline";
import { createId } from "../ids";
import { claim, storeResponse, validateIdempotencyKey } from "../idempotency/claims";
import { requestFingerprint } from "../idempotency/fingerprint";
import { getCheckout } from "../checkouts/get-checkout";
import { openCheckout } from "../checkouts/open-checkout";
import { OpenCheckoutBody } from "../checkouts/schemas";
import { listEvents } from "../events/list-events";
import { EVENT_TYPES } from "../events/types";
import { getBalance } from "../ledger/get-balance";
import { getMeter } from "../meters/get-meter";
import { listMeters } from "../meters/list-meters";
import { METER_STATUSES } from "../meters/schemas";
import { ORDER_STATUSES } from "../orders/transitions";
import { PAYMENT_SOURCES } from "../payments/sources";
import { PAYMENT_INTENT_STATUSES } from "../payments/transitions";
import { createProduct } from "../products/create-product";
import { listProducts } from "../products/list-products";
import { CreateProductBody } from "../products/schemas";
import { createRefund } from "../refunds/create-refund";
import { CreateRefundBody } from "../refunds/schemas";
import { allows, PermissionDeniedError, type Permission } from "../merchants/permissions";
import type { Scope } from "../scope";
import { parseOrThrow } from "../validation/parse";
import { listFailedDeliveries } from "../webhooks/list-failed-deliveries";
import type { McpPrincipal } from "./principal";
import {
  getOrderAfterExpiry,
  getPaymentIntentAfterExpiry,
  listOrdersAfterExpiry,
  listPaymentIntentsAfterExpiry,
} from "../checkouts/read-after-expiry";

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

type Annotations = { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
const READ: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates something; retried with its idempotencyKey it happens once. */
const CREATE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Moves money out (a refund cannot be undone). */
const DESTRUCTIVE: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

function ok(value: unknown): CallToolResult {
  const structured = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

function failed(err: unknown): CallToolResult {
  const { body } = toErrorResult(err, createId("request"));
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

function requireScope(principal: McpPrincipal, scope: "read" | "write"): void {
  if (!principal.scopes.includes(scope)) {
    throw new DomainError("FORBIDDEN", `This token lacks the '${scope}' scope this tool needs: authorize again granting it.`, {
      reason: "insufficient_scope",
      requiredScope: scope,
    });
  }
}

function scopeOf(principal: McpPrincipal): Scope {
  return { merchantId: principal.merchantId, livemode: principal.livemode };
}

/** A read: on the pool, its errors as tool errors. */
function read(principal: McpPrincipal, work: (db: Db, scope: Scope) => Promise<unknown>) {
  return async (): Promise<CallToolResult> => {
    try {
      requireScope(principal, "read");
      return ok(await work(getDb(), scopeOf(principal)));
    } catch (err) {
      return failed(err);
    }
  };
}

/**
 * A write, as api() runs a /v1 mutation: the idempotency claim (when a key is sent), then the work and its
 * stored result in one transaction; an error whose state commits (a declined refund) is the stored result.
 */
async function write(
  principal: McpPrincipal,
  tool: string,
  args: Record<string, unknown>,
  work: (tx: Db, scope: Scope) => Promise<unknown>,
): Promise<CallToolResult> {
  let claimId: string | null = null;
  try {
    requireScope(principal, "write");
    const { idempotencyKey, ...input } = args;
    if (typeof idempotencyKey === "string") {
      validateIdempotencyKey(idempotencyKey);
      const outcome = await claim(
        sql(),
        { apiKeyId: principal.actor, livemode: principal.livemode, key: idempotencyKey },
        requestFingerprint("MCP", `tools/${tool}`, input),
      );
      if (outcome.kind === "replay") {
        const body = JSON.parse(outcome.bodyText);
        return outcome.status < 300 ? ok(body) : { isError: true, content: [{ type: "text", text: outcome.bodyText }] };
      }
      claimId = outcome.claimId;
    }
    const result = await transaction(async (tx) => {
      const outcome = await outcomeOf(() => work(tx, scopeOf(principal)), createId("request"));
      if (claimId) await storeResponse(tx, claimId, outcome.status, JSON.stringify(outcome.body));
      return outcome;
    });
    return result.status < 300 ? ok(result.body) : { isError: true, content: [{ type: "text", text: JSON.stringify(result.body) }] };
  } catch (err) {
    if (claimId) await settleClaimOnError(claimId, err, toErrorResult(err, createId("request")));
    return failed(err);
  }
}

/** A tool's definition as the SDK takes it, with the permission a restricted API key needs to see and call it. */
interface ToolConfig<O, I> {
  title?: string;
  description?: string;
  inputSchema?: I;
  outputSchema?: O;
  annotations?: ToolAnnotations;
  permission: Permission;
}

interface ToolRegistry {
  tool<O extends ZodRawShapeCompat | AnySchema, I extends undefined | ZodRawShapeCompat | AnySchema = undefined>(
    name: string,
    config: ToolConfig<O, I>,
    cb: ToolCallback<I>,
  ): void;
}

/**
 * Whether the principal may see and call a tool that needs `permission`: OAuth tokens and secret keys may (their
 * scopes decide the rest); a restricted key needs the tool's (resource, level) and `mcp` at the same level.
 * Answers the permission it lacks, or null.
 */
export function missingToolPermission(principal: Pick<McpPrincipal, "permissions">, [resource, level]: Permission): Permission | null {
  if (!allows(principal.permissions, [resource, level])) return [resource, level];
  if (!allows(principal.permissions, ["mcp", level])) return ["mcp", level];
  return null;
}

/**
 * Registers the tools the principal may call. A restricted key's other tools are not listed; one this request
 * calls by name (`called`) is registered without input schema so that calling it answers the tool error FORBIDDEN
 * permission_denied, before any argument is read.
 */
export function registerTools(server: McpServer, principal: McpPrincipal, called: ReadonlySet<string> = new Set()): void {
  defineTools(
    {
      tool(name, { permission, ...config }, cb) {
        const missing = missingToolPermission(principal, permission);
        if (!missing) server.registerTool(name, config, cb);
        else if (called.has(name)) {
          const { title, description, annotations } = config;
          server.registerTool(name, { title, description, annotations }, () => failed(new PermissionDeniedError(missing)));
        }
      },
    },
    principal,
  );
}

/** Every tool's name and the permission it declares (the docs' table and tests/unit/route-permissions.test.ts). */
export function toolPermissions(): Map<string, Permission> {
  const found = new Map<string, Permission>();
  const anyone: McpPrincipal = { merchantId: "", livemode: false, scopes: [], actor: "", clientId: "", token: "", permissions: null };
  defineTools({ tool: (name, config) => void found.set(name, config.permission) }, anyone);
  return found;
}

function defineTools(tools: ToolRegistry, principal: McpPrincipal): void {
  const mode = principal.livemode ? "live" : "test";

  tools.tool(
    "create_checkout",
    {
      permission: ["checkouts", "write"],
      title: "Create a checkout (payment link)",
      description: `Opens a hosted checkout in ${mode} mode and returns it; its \`url\` is the payment link to send to the payer. Give amount (minor units, e.g. cents) and currency, or items. Needs the write scope.`,
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
      annotations: { title: "Create a checkout (payment link)", ...CREATE },
    },
    (args) =>
      write(principal, "create_checkout", args, (tx, scope) => {
        const { idempotencyKey: _key, ...body } = args;
        return openCheckout(tx, scope, parseOrThrow(OpenCheckoutBody, body), { source: "mcp" });
      }),
  );

  tools.tool(
    "get_checkout",
    {
      permission: ["checkouts", "read"],
      title: "Get a checkout",
      description: "One checkout by id (cs_...).",
      inputSchema: { id: Id },
      outputSchema: CheckoutOut,
      annotations: { title: "Get a checkout", ...READ },
    },
    ({ id }) => read(principal, (db, scope) => getCheckout(db, scope, id))(),
  );

  tools.tool(
    "get_order",
    {
      permission: ["orders", "read"],
      title: "Get an order",
      description: "One order by id (ord_...).",
      inputSchema: { id: Id },
      outputSchema: AnyObject,
      annotations: { title: "Get an order", ...READ },
    },
    ({ id }) => read(principal, (db, scope) => getOrderAfterExpiry(db, scope, id))(),
  );

  tools.tool(
    "list_orders",
    {
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
      annotations: { title: "List orders", ...READ },
    },
    (args) =>
      read(principal, (db, scope) =>
        listOrdersAfterExpiry(db, scope, {
          limit: args.limit ?? 20,
          startingAfter: args.startingAfter,
          status: args.status,
          source: args.source,
        }),
      )(),
  );

  tools.tool(
    "get_payment",
    {
      permission: ["payment_intents", "read"],
      title: "Get a payment",
      description: "One PaymentIntent by id (pi_...).",
      inputSchema: { id: Id },
      outputSchema: AnyObject,
      annotations: { title: "Get a payment", ...READ },
    },
    ({ id }) => read(principal, (db, scope) => getPaymentIntentAfterExpiry(db, scope, id))(),
  );

  tools.tool(
    "list_payments",
    {
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
      annotations: { title: "List payments", ...READ },
    },
    (args) =>
      read(principal, (db, scope) =>
        listPaymentIntentsAfterExpiry(db, scope, {
          limit: args.limit ?? 20,
          startingAfter: args.startingAfter,
          status: args.status,
          source: args.source,
        }),
      )(),
  );

  tools.tool(
    "create_refund",
    {
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
      annotations: { title: "Refund a payment", ...DESTRUCTIVE },
    },
    (args) =>
      write(principal, "create_refund", args, (tx, scope) => {
        const { idempotencyKey: _key, ...body } = args;
        return createRefund(tx, scope, parseOrThrow(CreateRefundBody, body));
      }),
  );

  tools.tool(
    "get_balance",
    {
      permission: ["balance", "read"],
      title: "Get the balance",
      description: "Pending and payable funds per currency.",
      inputSchema: {},
      outputSchema: BalanceOut,
      annotations: { title: "Get the balance", ...READ },
    },
    () => read(principal, (db, scope) => getBalance(db, scope))(),
  );

  tools.tool(
    "list_products",
    {
      permission: ["products", "read"],
      title: "List products",
      description: "Catalog products, newest first.",
      inputSchema: { limit: Limit, startingAfter: StartingAfter, active: z.boolean().optional() },
      outputSchema: ListOf(AnyObject),
      annotations: { title: "List products", ...READ },
    },
    (args) =>
      read(principal, (db, scope) =>
        listProducts(db, scope, { limit: args.limit ?? 20, startingAfter: args.startingAfter, active: args.active }),
      )(),
  );

  tools.tool(
    "create_product",
    {
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
      annotations: { title: "Create a product", ...CREATE },
    },
    (args) =>
      write(principal, "create_product", args, (tx, scope) => {
        const { idempotencyKey: _key, ...body } = args;
        return createProduct(tx, scope, parseOrThrow(CreateProductBody, body));
      }),
  );

  tools.tool(
    "list_meters",
    {
      permission: ["meters", "read"],
      title: "List meters",
      description: "Usage meters, newest first.",
      inputSchema: { limit: Limit, startingAfter: StartingAfter, status: z.enum(METER_STATUSES).optional(), customerId: Id.optional() },
      outputSchema: ListOf(AnyObject),
      annotations: { title: "List meters", ...READ },
    },
    (args) =>
      read(principal, (db, scope) =>
        listMeters(db, scope, {
          limit: args.limit ?? 20,
          startingAfter: args.startingAfter,
          status: args.status,
          customerId: args.customerId,
        }),
      )(),
  );

  tools.tool(
    "get_meter",
    {
      permission: ["meters", "read"],
      title: "Get a meter",
      description: "One meter by id (mtr_...).",
      inputSchema: { id: Id },
      outputSchema: AnyObject,
      annotations: { title: "Get a meter", ...READ },
    },
    ({ id }) => read(principal, (db, scope) => getMeter(db, scope, id))(),
  );

  tools.tool(
    "list_events",
    {
      permission: ["events", "read"],
      title: "Recent events",
      description: "Events (payment captured, refund created, ...), newest first.",
      inputSchema: { limit: Limit, startingAfter: StartingAfter, type: z.enum(EVENT_TYPES).optional() },
      outputSchema: ListOf(AnyObject),
      annotations: { title: "Recent events", ...READ },
    },
    (args) =>
      read(principal, (db, scope) =>
        listEvents(db, scope, { limit: args.limit ?? 20, startingAfter: args.startingAfter, type: args.type }),
      )(),
  );

  tools.tool(
    "list_failed_deliveries",
    {
      permission: ["webhook_endpoints", "read"],
      title: "Failed webhook deliveries",
      description: "Webhook deliveries that failed every retry, newest first, with their last attempt.",
      inputSchema: { limit: Limit },
      outputSchema: ListOf(AnyObject),
      annotations: { title: "Failed webhook deliveries", ...READ },
    },
    (args) => read(principal, (db, scope) => listFailedDeliveries(db, scope, args.limit ?? 20))(),
  );
}
