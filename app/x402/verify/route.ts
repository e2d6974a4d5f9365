// POST /x402/verify (merchant key): the x402 facilitator's verify (docs/x402.md).
import { verifyX402 } from "@/lib/x402/facilitator";
import { facilitatorRoute } from "@/lib/x402/facilitator-route";

export const POST = facilitatorRoute("verify", { permission: ["x402", "write"], transaction: false }, ({ tx, caller, body }) =>
  verifyX402(tx, caller, body),
);

export const dynamic = "force-dynamic";
