// /mpp/r/:id: a hosted paid resource (xr_) sold over the Payment HTTP authentication scheme (lib/mpp/serve-resource.ts).
// Public, limited per client IP: the payment is the credential. A resource answers its own method (`method`,
// default GET; HEAD beside GET); another is 405, the body never read.
import { serveMppResource } from "@/lib/mpp/serve-resource";

export {
  serveMppResource as GET,
  serveMppResource as POST,
  serveMppResource as PUT,
  serveMppResource as PATCH,
  serveMppResource as DELETE,
};

export const dynamic = "force-dynamic";
