// POST /visa/verify (merchant key): was this request, received by the merchant's own server, signed by a
// registered visa agent? (docs/cards.md "Verify for your own server").
import { VerifyRequestBody } from "@/lib/agent-identity/signed-request";
import { verifyForMerchant } from "@/lib/agent-identity/verify-for-merchant";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["visa", "write"], body: VerifyRequestBody, idempotent: false, bodyLimitBytes: 512 * 1024 },
  ({ tx, principal, body }) => verifyForMerchant(tx, principal, "visa", body),
);

export const dynamic = "force-dynamic";
