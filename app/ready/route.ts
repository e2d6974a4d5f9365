import { checkReadiness } from "@/lib/health/readiness";
import { jsonAnswer } from "@/lib/http/small-answer";

export const dynamic = "force-dynamic";

export async function GET() {
  const { ready, checks } = await checkReadiness();
  return jsonAnswer({ status: ready ? "ready" : "not_ready", checks }, ready ? 200 : 503);
}
