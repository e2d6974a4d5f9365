// The service's own MCP server (lib/mcp/handle.ts; docs/oauth-and-mcp.md). Public, limited per client IP.
import { handleMcp } from "@/lib/mcp/handle";

export const GET = handleMcp;
export const POST = handleMcp;
export const DELETE = handleMcp;

export const dynamic = "force-dynamic";
