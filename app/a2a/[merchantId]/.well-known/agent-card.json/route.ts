// The merchant agent's card (A2A v1.0 ProtoJSON; docs/a2a.md): public, limited per client IP.
import { serveAgentCard } from "@/lib/a2a/serve-agent";

type Context = { params: Promise<{ merchantId: string }> };

export async function GET(req: Request, context: Context) {
  return serveAgentCard(req, (await context.params).merchantId);
}

export const dynamic = "force-dynamic";
