// POST /x402/verify (merchant key): the x402 facilitator's verify (docs/x402.md).
import { z } from "zod";
import { api } from "@/lib/http/api";
import { verifyX402 } from "@/lib/x402/facilitator";

export const POST = api(
  { auth: "secret", permission: ["x402", "write"], body: z.unknown(), idempotent: false, transaction: false, bodyLimitBytes: 64 * 1024 },
  ({ tx, principal, body }) => verifyX402(tx, principal, body),
);

export const dynamic = "force-dynamic";
