// What /mcp reads itself, before the SDK's transport: the body under MCP_BODY_LIMIT_BYTES (past it a 413, and
// nothing more is read), parsed as ONE JSON-RPC message. A batch (an array) is refused whole: MCP 2025-06-18
// removed batching, and one POST of 100 tool calls would run them all for one request's limits.
import { readBodyText } from "../http/read-body";

export const MCP_BODY_LIMIT_BYTES = 64 * 1024;

/** A refusal answered in JSON-RPC's envelope (id null: no request of it was read), as the transport answers its own. */
export class JsonRpcRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The one JSON-RPC message of the request (the transport checks its shape). */
export async function readMessage(req: Request): Promise<unknown> {
  const text = await readBodyText(req, MCP_BODY_LIMIT_BYTES);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw new JsonRpcRefusal(400, -32700, "Parse error: Invalid JSON");
  }
  if (Array.isArray(message)) {
    throw new JsonRpcRefusal(
      400,
      -32600,
      "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed batching): send one message per POST.",
    );
  }
  return message;
}

/** The tool a `tools/call` message calls ("" when it names none), or null for any other message. */
export function calledTool(message: unknown): string | null {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (m?.method !== "tools/call") return null;
  return typeof m.params?.name === "string" ? m.params.name : "";
}
