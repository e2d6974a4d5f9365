// Any other path under /mpp: 404 with an RFC 9457 problem body, like every answer of the /mpp paths.
import { problemResponse } from "@/lib/mpp/problem";

const notFound = (req: Request) =>
  problemResponse("not_found", { detail: `Unrecognized request URL (${req.method} ${new URL(req.url).pathname.slice(0, 200)}).` });
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };

export const dynamic = "force-dynamic";
