// The same as /v1/paid_resources/:id/rotate-forwarding-secret (docs/x402.md names both paths).
export { POST } from "../../../../paid_resources/[id]/rotate-forwarding-secret/route";

export const dynamic = "force-dynamic";
