// The root agent card: the demo merchant's agent (docs/a2a.md); public, limited per client IP.
import { serveAgentCard } from "@/lib/a2a/serve-agent";

export const GET = serveAgentCard;

export const dynamic = "force-dynamic";
