// The merchant agent's card (A2A v1.0 ProtoJSON; docs/a2a.md): public, limited per client IP.
import { serveAgentCard } from "@/lib/a2a/serve-agent";

export const GET = serveAgentCard;

export const dynamic = "force-dynamic";
