// A hosted paid resource over x402, public (the payment is the credential), limited per client IP (docs/x402.md).
import { serveX402Resource } from "@/lib/x402/serve-resource";

type Context = { params: Promise<{ id: string }> };

async function handle(req: Request, context: Context) {
  return serveX402Resource(req, (await context.params).id);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };

export const dynamic = "force-dynamic";
