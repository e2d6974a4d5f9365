// A hosted paid resource over x402, public (the payment is the credential), limited per client IP (docs/x402.md).
import { serveX402Resource } from "@/lib/x402/serve-resource";

export {
  serveX402Resource as GET,
  serveX402Resource as POST,
  serveX402Resource as PUT,
  serveX402Resource as PATCH,
  serveX402Resource as DELETE,
};

export const dynamic = "force-dynamic";
