// Any other path under /acp: 404 as ACP's flat error, like every answer of the /acp paths.
const notFound = (req: Request) =>
  Response.json(
    {
      type: "invalid_request",
      code: "not_found",
      message: `Unrecognized request URL (${req.method} ${new URL(req.url).pathname.slice(0, 200)}).`,
    },
    { status: 404, headers: req.headers.get("request-id") ? { "Request-Id": req.headers.get("request-id")!.slice(0, 255) } : {} },
  );
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };

export const dynamic = "force-dynamic";
