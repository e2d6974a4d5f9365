// POST /x402/settle (merchant key): the x402 facilitator's settle, into a captured PaymentIntent (docs/x402.md).
// Retries are made safe by the authorization's own single use (its nonce), not by an Idempotency-Key record.
import { z } from "zod";
import { api } from "@/lib/http/api";
import { settleX402 } from "@/lib/x402/facilitator";

export const POST = api(
  { auth: "secret", permission: ["x402", "write"], body: z.unknown(), idempotent: false, bodyLimitBytes: 64 * 1024 },
  ({ tx, principal, body }) => settleX402(tx, principal, body),
);

export const dynamic = "force-dynamic";
