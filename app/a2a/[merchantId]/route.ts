// The merchant agent's JSON-RPC endpoint (A2A v1.0 and v0.3; docs/a2a.md): the buyer's API key as Bearer.
import { rpcError, serveAgentRpc } from "@/lib/a2a/serve-agent";

export const POST = serveAgentRpc;

const notAllowed = () =>
  rpcError(
    405,
    -32600,
    "The merchant agent answers JSON-RPC on POST; its card is at ./.well-known/agent-card.json.",
    new Headers({ Allow: "POST" }),
  );
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
