// GET /mpp/r/:id: a hosted paid resource (xr_) sold over the Payment HTTP authentication scheme
// (lib/mpp/serve-resource.ts). Public, limited per client IP: the payment is the credential.
import { methodNotAllowed } from "@/lib/mpp/problem";
import { serveMppResource } from "@/lib/mpp/serve-resource";

export async function GET(req: Request, context: { params: Promise<{ id: string }> }) {
  return serveMppResource(req, (await context.params).id);
}

// Anything else is 405 with a problem body; a request body is never read.
const notAllowed = () => methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
