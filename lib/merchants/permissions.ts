// Restricted API keys' permissions (docs/restricted-keys.md): resource -> "none" | "read" | "write", write
// implying read. The resources are the /v1 collections and the protocol paths as the contract names them, plus
// `paywall` (the /v1/paywall/* service side, which no collection of the contract's list covers) and `receipts`. A secret key
// (`sk_`) has no permissions object: it may do everything. Every route and MCP tool declares the one
// (resource, level) it needs; the request pipeline checks it in the authentication statement itself.
import { z } from "zod";
import { ForbiddenError } from "../errors";

export const RESOURCES = [
  "checkouts",
  "payment_intents",
  "orders",
  "refunds",
  // Disputes (docs/disputes.md): read lists and retrieves them; write gives evidence, submits and accepts.
  "disputes",
  "customers",
  "products",
  "meters",
  "webhook_endpoints",
  "events",
  "balance",
  "paid_resources",
  "shared_payment_tokens",
  // Spending agents and their policies (docs/spending-policies.md): read lists and retrieves them; write creates them and sets policies.
  "spending_agents",
  // Approval requests (docs/approvals.md): read lists and retrieves them; write approves and declines (money moves on approval).
  "approval_requests",
  "paywall",
  // Signed receipts (GET /v1/payment_intents/:id/receipt, read only): a resource of its own, so that a key that
  // gathers evidence (receipts for a dispute) needs no access to list or search the PaymentIntents.
  "receipts",
  // Live x402's payout addresses: readable with a grant; never written with a restricted key (lib/x402/payout-addresses.ts).
  "payout_addresses",
  "x402",
  "mpp",
  "acp",
  "a2a",
  "ap2",
  "visa",
  "mastercard",
  "mcp",
] as const;

export type Resource = (typeof RESOURCES)[number];
export type Level = "read" | "write";
export type Access = "none" | Level;

/** What a route or tool needs: a resource at a level. */
export type Permission = readonly [Resource, Level];

/** A restricted key's grants: every resource named, "none" where nothing is granted. */
export type Permissions = Record<Resource, Access>;

export const ACCESS_LEVELS = ["none", "read", "write"] as const;

export function isResource(value: unknown): value is Resource {
  return typeof value === "string" && (RESOURCES as readonly string[]).includes(value);
}

/** The grants as given (any subset of the resources), every resource then named: absent ones are "none". */
export const PermissionsInput = z
  .record(z.string(), z.enum(ACCESS_LEVELS))
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!isResource(key))
        ctx.addIssue({ code: "custom", path: [key], message: `Unknown resource '${key.slice(0, 40)}'; one of ${RESOURCES.join(", ")}.` });
    }
    if (!Object.values(value).some((access) => access !== "none"))
      ctx.addIssue({ code: "custom", message: "Grant at least one resource read or write." });
  })
  .transform((value) => normalizePermissions(value));

/** Every resource named, "none" where the stored or given grants say nothing (a resource added later). */
export function normalizePermissions(value: Record<string, unknown> | null | undefined): Permissions {
  const out = {} as Permissions;
  for (const resource of RESOURCES) {
    const access = value?.[resource];
    out[resource] = access === "read" || access === "write" ? access : "none";
  }
  return out;
}

/** What is stored: only the granted resources (a resource added later is "none" for existing keys). */
export function storedPermissions(permissions: Permissions): Partial<Record<Resource, Level>> {
  const out: Partial<Record<Resource, Level>> = {};
  for (const resource of RESOURCES) {
    const access = permissions[resource];
    if (access !== "none") out[resource] = access;
  }
  return out;
}

/** Whether the grants allow the permission. null grants (a secret key): everything. */
export function allows(grants: Partial<Record<string, unknown>> | null | undefined, [resource, level]: Permission): boolean {
  if (grants == null) return true;
  const access = grants[resource];
  return access === "write" || (level === "read" && access === "read");
}

/** `checkouts:write,orders:read` (the CLI's form) -> grants. Throws with the first bad part. */
export function parsePermissionList(text: string): Permissions {
  const given: Record<string, string> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [resource, access, extra] = part.split(":");
    if (extra !== undefined || !isResource(resource) || !(ACCESS_LEVELS as readonly string[]).includes(access ?? "")) {
      throw new Error(`Bad permission '${part}': write <resource>:<none|read|write>, resources ${RESOURCES.join(", ")}.`);
    }
    given[resource] = access;
  }
  const parsed = PermissionsInput.safeParse(given);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "Bad permissions.");
  return parsed.data;
}

/** 403 FORBIDDEN, details { reason: "permission_denied", resource, required }: the key lacks what the route needs. */
export class PermissionDeniedError extends ForbiddenError {
  constructor(readonly permission: Permission) {
    const [resource, required] = permission;
    super(
      `This restricted key does not allow ${required} access to '${resource}': roll or create a key that grants ${resource}:${required}.`,
    );
    Object.assign(this.details, { reason: "permission_denied", resource, required });
  }
}

export function isPermissionDenied(err: unknown): err is PermissionDeniedError {
  return err instanceof PermissionDeniedError;
}

/** "checkouts: write, orders: read", or "No access" (what the dashboard's keys list shows). */
export function describePermissions(permissions: Partial<Record<string, string>>): string {
  const granted = Object.entries(permissions).filter(([, access]) => access && access !== "none");
  return granted.length ? granted.map(([resource, access]) => `${resource}: ${access}`).join(", ") : "No access";
}
