// POST /x402/settle (merchant key): the x402 facilitator's settle, into a captured PaymentIntent (docs/x402.md);
// in live mode on chain, its own transactions around the chain's wait (lib/x402/settle-on-chain.ts).
// Retries are made safe by the authorization's own single use (its nonce), not by an Idempotency-Key record.
import { faultAt } from "@/lib/http/fault-injection";
import { settleX402 } from "@/lib/x402/facilitator";
import { facilitatorRoute } from "@/lib/x402/facilitator-route";

export const POST = facilitatorRoute("settle", { permission: ["x402", "write"], transaction: false }, ({ caller, body, req }) =>
  settleX402(caller, body, { afterBroadcast: () => faultAt(req, "after-broadcast") }),
);

export const dynamic = "force-dynamic";
