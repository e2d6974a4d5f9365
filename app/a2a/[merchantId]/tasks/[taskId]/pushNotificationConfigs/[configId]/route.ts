// The merchant agent's HTTP+JSON (REST) binding (A2A v1.0; docs/a2a.md "HTTP+JSON binding"), served by lib/a2a/serve-rest.ts.
// Here: GET and DELETE one push notification config of a task.
import { serveAgentRestRead, serveAgentRestWrite } from "@/lib/a2a/serve-rest";

export const GET = serveAgentRestRead;
export const DELETE = serveAgentRestWrite;

export const dynamic = "force-dynamic";
