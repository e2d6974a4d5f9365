// The same collection as /v1/paid_resources (CONTRACT.md names both paths).
export { GET, POST } from "../../paid_resources/route";

export const dynamic = "force-dynamic";
