// How /x402/r/:id and /mpp/r/:id serve a paid resource, whatever the protocol: where it lives (PAID_CONTENT_ORIGIN,
// else BASE_URL), which methods it takes, and the headers of its paid content (paid-content-headers.ts).
import { env } from "../env";
import type { PaidResource } from "../generated/prisma/client";
import { PAID_CONTENT_HEADERS } from "./paid-content-headers";

/** The public address of a resource over a protocol. */
export function paidResourceUrl(protocol: "x402" | "mpp", id: string): string {
  return `${env.PAID_CONTENT_ORIGIN ?? env.BASE_URL}/${protocol}/r/${id}`;
}

/** The methods a resource answers: its own, and HEAD beside GET (HEAD never pays). */
export function allowedMethods(resource: PaidResource): string[] {
  return resource.method === "GET" ? ["GET", "HEAD"] : [resource.method];
}

/**
 * With PAID_CONTENT_ORIGIN set, a request for a paid resource on another host is sent there (308 keeps the method
 * and body) before anything is read; null when it is on the right host (or no separate origin is set).
 */
export function redirectToContentOrigin(req: Request): Response | null {
  if (!env.PAID_CONTENT_ORIGIN) return null;
  const origin = new URL(env.PAID_CONTENT_ORIGIN);
  if (req.headers.get("host") === origin.host) return null;
  const target = new URL(req.url);
  return new Response(null, {
    status: 308,
    headers: { Location: `${origin.origin}${target.pathname}${target.search}`, "Cache-Control": "no-store" },
  });
}

/** The paid answer (the resource's content, or the merchant's forwarded answer) with the content's safety headers. */
export function paidContentResponse(
  headers: Headers,
  answer: { status: number; contentType: string | null; body: Uint8Array | null },
): Response {
  for (const [name, value] of Object.entries(PAID_CONTENT_HEADERS)) headers.set(name, value);
  if (answer.contentType) headers.set("Content-Type", answer.contentType);
  return new Response(answer.body === null ? null : new Uint8Array(answer.body), { status: answer.status, headers });
}
