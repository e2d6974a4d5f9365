// Turning what arrived into the verifier's view of a request (docs/cards.md "Verification"): a request to one of
// our protocol routes (its authority must be ours), or the request a merchant's own server received and hands to
// POST /visa/verify or /mastercard/verify.
import { z } from "zod";
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "../scope";
import type { SignedRequest } from "./message-signature";
import type { Network, Operation } from "./profiles";
import { AgentSignatureRefused } from "./reasons";
import { verifyAgentRequest, type VerifiedAgent } from "./verify-agent-request";

/** A request to this service: @authority is the Host it was sent to; it must be BASE_URL's. */
export function signedRequestOf(req: Request): SignedRequest {
  const url = new URL(req.url);
  return {
    method: req.method,
    scheme: new URL(env.BASE_URL).protocol.replace(":", ""),
    authority: req.headers.get("host") ?? url.host,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    header: (name) => req.headers.get(name),
  };
}

export function ownAuthority(): string {
  return new URL(env.BASE_URL).host;
}

/** The verified agent of a request to one of our routes, or the refusal thrown (403/401/400 with its reason). */
export async function requireVerifiedAgent(
  tx: Db,
  req: Request,
  rawBody: string | undefined,
  scope: Scope,
  network: Network,
  operation: Operation,
): Promise<VerifiedAgent> {
  const verification = await verifyAgentRequest(
    tx,
    { ...signedRequestOf(req), body: rawBody ?? null },
    {
      network,
      operation,
      livemode: scope.livemode,
      ownOrigin: env.BASE_URL,
      expectedAuthority: ownAuthority(),
      requireContentDigest: operation === "pay" && env.AGENT_PAYMENTS_REQUIRE_CONTENT_DIGEST,
    },
  );
  if (!verification.ok) throw new AgentSignatureRefused(verification.reason);
  return verification;
}

/** The body of POST /visa/verify and /mastercard/verify: the request the merchant's server received. */
export const VerifyRequestBody = z
  .object({
    method: z.string().regex(/^[A-Za-z]{1,16}$/, "an HTTP method"),
    url: z
      .string()
      .max(4096)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL"),
    headers: z.record(z.string().max(256), z.string().max(16_384)).refine((h) => Object.keys(h).length <= 100, "at most 100 headers"),
    body: z
      .string()
      .max(256 * 1024)
      .optional(),
  })
  .strict();
export type VerifyRequestInput = z.output<typeof VerifyRequestBody>;

export function signedRequestFromBody(input: VerifyRequestInput): SignedRequest {
  const url = new URL(input.url);
  const headers = new Map(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: input.method,
    scheme: url.protocol.replace(":", ""),
    authority: url.host,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    header: (name) => headers.get(name.toLowerCase()) ?? null,
    body: input.body ?? "",
  };
}
