import { checkReadiness } from "@/lib/health/readiness";

export const dynamic = "force-dynamic";

export async function GET() {
  const { ready, checks } = await checkReadiness();
  return Response.json({ status: ready ? "ready" : "not_ready", checks }, { status: ready ? 200 : 503 });
}
