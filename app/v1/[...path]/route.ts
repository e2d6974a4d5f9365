// Any /v1 path no route claims: 404 NOT_FOUND in the error contract's shape.
import { errorResult } from "@/lib/http/errors";

function notFound(req: Request) {
  const { pathname } = new URL(req.url);
  const { status, body } = errorResult("NOT_FOUND", `Unrecognized request URL (${req.method} ${pathname}).`);
  return Response.json(body, { status });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };

export const dynamic = "force-dynamic";
