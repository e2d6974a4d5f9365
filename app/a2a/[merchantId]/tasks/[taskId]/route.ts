// The merchant agent's HTTP+JSON (REST) binding (A2A v1.0; docs/a2a.md "HTTP+JSON binding"), served by lib/a2a/serve-rest.ts.
// Here: GET /tasks/{id} (GetTask), POST /tasks/{id}:cancel, GET or POST /tasks/{id}:subscribe (SSE).
import { serveAgentRestRead, serveAgentRestWrite } from "@/lib/a2a/serve-rest";

export const GET = serveAgentRestRead;
export const POST = serveAgentRestWrite;

export const dynamic = "force-dynamic";
