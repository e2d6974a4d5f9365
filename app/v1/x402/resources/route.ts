// The same collection as /v1/paid_resources (docs/x402.md names both paths).
export { GET, POST } from "../../paid_resources/route";

export const dynamic = "force-dynamic";
