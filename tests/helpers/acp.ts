// ACP calls for tests: every answer of an /acp path is validated here against the ONE module of zod schemas
// written from ACP's field tables (lib/acp/schemas.ts), so no test can pass on a response ACP would reject.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { z } from "zod";
import * as acp from "../../lib/acp/schemas";
import { call, type ApiResponse } from "./http";

export const API_VERSION = "2026-01-16";

/** The schema an /acp answer must satisfy, from its path and status. */
export function schemaFor(method: string, path: string, status: number, body?: unknown): z.ZodType {
  const delegate = path.startsWith("/acp/agentic_commerce/delegate_payment");
  if (status >= 400) {
    // delegate_payment's closed code enum has no value for 401/404/405/5xx nor for API-Version refusals (an open
    // gap of ACP's schema; the checkout RFC's missing_api_version / unsupported_api_version are used): those
    // answer as the checkout API's flat error, still ACP's flat shape. Every other delegate error is strict.
    const versionError = typeof body === "object" && body !== null && "supported_versions" in body;
    return delegate && ![401, 404, 405].includes(status) && status < 500 && !versionError ? acp.DelegatePaymentError : acp.FlatError;
  }
  if (delegate) return acp.DelegatePaymentResponse;
  // A completion that needs 3-D Secure first answers the session authentication_required, without an order.
  const completed = (body as { status?: string } | undefined)?.status === "completed";
  if (method === "POST" && path.endsWith("/complete")) return completed ? acp.CheckoutSessionWithOrder : acp.CheckoutSession;
  return acp.CheckoutSession;
}

export interface AcpCallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  /** Idempotency-Key; default a fresh UUID on POST; null: none sent. */
  idem?: string | null;
  version?: string | null;
  headers?: Record<string, string>;
  base?: string;
}

export async function acpCall(method: string, path: string, options: AcpCallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.version !== null) headers["API-Version"] = options.version ?? API_VERSION;
  const idem = options.idem === undefined ? (method === "POST" ? randomUUID() : null) : options.idem;
  if (idem !== null) headers["Idempotency-Key"] = idem;
  if (options.rawBody !== undefined) headers["Content-Type"] = "application/json";
  const res = await call(method, path, { key: options.key, body: options.body, rawBody: options.rawBody, headers, base: options.base });
  const schema = schemaFor(method, path, res.status, res.body);
  const parsed = schema.safeParse(res.body);
  expect(
    parsed.success,
    `${method} ${path} -> ${res.status} does not match ACP's schema: ${JSON.stringify(res.body)} ${parsed.error?.message ?? ""}`,
  ).toBe(true);
  expect(res.status, `${method} ${path}: never a 500 (${JSON.stringify(res.body)})`).toBeLessThan(500);
  return res;
}
