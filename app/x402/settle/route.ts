// POST /x402/settle (merchant key): the x402 facilitator's settle, into a captured PaymentIntent (docs/x402.md).
// Retries are made safe by the authorization's own single use (its nonce), not by an Idempotency-Key record.
import { settleX402 } from "@/lib/x402/facilitator";
import { facilitatorRoute } from "@/lib/x402/facilitator-route";

export const POST = facilitatorRoute("settle", { permission: ["x402", "write"] }, ({ tx, caller, body }) => settleX402(tx, caller, body));

export const dynamic = "force-dynamic";
