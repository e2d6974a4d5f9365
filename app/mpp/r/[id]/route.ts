// /mpp/r/:id: a hosted paid resource (xr_) sold over the Payment HTTP authentication scheme
// (lib/mpp/serve-resource.ts). Public, limited per client IP: the payment is the credential. A `content`
// resource answers GET (other methods: 405, the body never read); a forwarded (`url`) one forwards any method.
import { serveMppResource } from "@/lib/mpp/serve-resource";

async function handle(req: Request, context: { params: Promise<{ id: string }> }) {
  return serveMppResource(req, (await context.params).id);
}
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };

export const dynamic = "force-dynamic";
