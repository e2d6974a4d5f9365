// Liveness probe: the process is up. Never rate limited, touches nothing.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
