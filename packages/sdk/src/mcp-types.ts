// The few MCP shapes the paywall wrappers produce, defined locally so the SDK does not load
// @modelcontextprotocol/sdk at run time. Structurally compatible with its CallToolResult: a handler
// wrapped by paywall() can be passed to McpServer.registerTool().

export interface TextContent {
  type: "text";
  text: string;
}

/** Any MCP content block (text, image, audio, resource link, embedded resource). */
export interface ContentBlock {
  type: string;
  [field: string]: unknown;
}

/** The result of a tool call; a wrapped handler may return anything of this shape. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The argument a caller adds on retry to present its payment (docs/sdk.md "Paywall (single-use), for MCP tools"). */
export interface ServicePaymentProof {
  paymentIntentId: string;
}

/**
 * JSON Schema of the `_servicePayment` argument. A tool whose input is validated (McpServer with an
 * inputSchema) must declare it, or the validator strips it before the paywall sees it; with zod:
 * `_servicePayment: z.object({ paymentIntentId: z.string() }).optional()`.
 */
export const SERVICE_PAYMENT_JSON_SCHEMA = {
  type: "object",
  properties: { paymentIntentId: { type: "string", description: "The PaymentIntent that paid this call's gate." } },
  required: ["paymentIntentId"],
  description: "Payment proof: present after paying the gate's payEndpoint.",
} as const;

/** A result the wrappers produce themselves (gate, already_redeemed, top-up): only text content. */
export interface StructuredErrorResult<S extends Record<string, unknown>> {
  [field: string]: unknown;
  content: TextContent[];
  structuredContent: S;
  isError: true;
}

/** Builds an error result carrying `body` as structuredContent and as JSON text in content[0] (plus a hint for agents). */
export function structuredErrorResult<S extends Record<string, unknown>>(body: S, hint?: string): StructuredErrorResult<S> {
  const content: TextContent[] = [{ type: "text", text: JSON.stringify(body) }];
  if (hint) content.push({ type: "text", text: hint });
  return { content, structuredContent: body, isError: true };
}
