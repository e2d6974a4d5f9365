// Browser side of dashboardApi: dashboardFetch sends JSON with the page's CSRF token, mode and merchant (read
// from the <meta> tags the dashboard layout renders) and turns error bodies into DashboardRequestError.
import { loginUrlFor } from "./callback-path";
import { MERCHANT_HEADER, MERCHANT_META } from "./merchant-header";

export class DashboardRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "DashboardRequestError";
  }

  /** Field errors of a VALIDATION_ERROR as { path: message }. */
  get fieldErrors(): Record<string, string> {
    const fields = Array.isArray(this.details.fields) ? (this.details.fields as { path: string; message: string }[]) : [];
    return Object.fromEntries(fields.map((field) => [field.path, field.message]));
  }
}

export const CSRF_META = "aps-csrf-token";
export const MODE_META = "aps-dashboard-mode";

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
}

export async function dashboardFetch<T = unknown>(
  path: string,
  options: { method?: string; body?: unknown; idempotencyKey?: string } = {},
): Promise<T> {
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { Accept: "application/json", "X-Dashboard-Mode": meta(MODE_META) };
  if (meta(MERCHANT_META)) headers[MERCHANT_HEADER] = meta(MERCHANT_META);
  if (method !== "GET") headers["X-CSRF-Token"] = meta(CSRF_META);
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
    });
  } catch {
    throw new DashboardRequestError(0, "network_error", "Could not reach the server. Check your connection and try again.");
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy's error page): handled below
  }
  if (res.ok) return parsed as T;
  const error = (parsed as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
  // Signed out meanwhile: sign in again and come back to this page.
  if (res.status === 401) window.location.assign(loginUrlFor(`${window.location.pathname}${window.location.search}`));
  throw new DashboardRequestError(
    res.status,
    error?.code ?? "http_error",
    error?.message ?? `The request failed (HTTP ${res.status}).`,
    error?.details ?? {},
  );
}
