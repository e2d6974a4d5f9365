// A tiny HTTP client for tests: JSON in, status + parsed body + headers out.
import { inject } from "vitest";
import { checkV1Response, recordV1Response } from "./openapi-responses";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function baseUrl(): string {
  return inject("baseUrl");
}

export async function call<T = any>(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const url = `${options.base ?? baseUrl()}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  recordV1Response(checkV1Response(method, url, res.status, res.headers.get("content-type") ?? "", parsed));
  return { status: res.status, body: parsed as T, headers: res.headers };
}
