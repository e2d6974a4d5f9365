// The same objects as /v1/paid_resources/:id (docs/x402.md names both paths).
export { DELETE, GET, POST } from "../../../paid_resources/[id]/route";

export const dynamic = "force-dynamic";
