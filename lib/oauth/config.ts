// The OAuth 2.1 authorization server's fixed facts (docs/oauth-and-mcp.md): issuer, the one protected
// resource (/mcp), scopes and the metadata documents (RFC 8414, RFC 9728).
import { env } from "../env";

/** read: every read-only tool. write: also the tools that create or move money (checkouts, refunds, products). */
export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: "See orders, payments, refunds, balance, products, meters, events and failed webhook deliveries",
  write: "Create checkouts (payment links) and products, and refund payments",
};

export const issuer = () => env.BASE_URL;
/** The resource indicator (RFC 8707) every token is bound to: this deployment's /mcp. */
export const mcpResource = () => `${env.BASE_URL}/mcp`;
export const resourceMetadataUrl = () => `${env.BASE_URL}/.well-known/oauth-protected-resource/mcp`;

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata() {
  const base = issuer();
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    // An HTTPS client_id naming the client's metadata document, no registration needed (lib/oauth/client-metadata-document.ts).
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/docs/oauth-and-mcp`,
  };
}

/** RFC 9728 protected resource metadata of /mcp. */
export function protectedResourceMetadata() {
  return {
    resource: mcpResource(),
    authorization_servers: [issuer()],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Agent Payments Service MCP server",
  };
}

/** The merchant may leave write out of a grant only when read was asked too: a grant is never more, nor other, than asked. */
export const writeIsOptional = (asked: readonly Scope[]) => asked.includes("read") && asked.includes("write");

/** Space-separated scope string -> known scopes, or null when one is unknown. Empty/absent: read. */
export function parseScopes(raw: string | null | undefined): Scope[] | null {
  const words = (raw ?? "").split(" ").filter(Boolean);
  if (words.length === 0) return ["read"];
  const out = new Set<Scope>();
  for (const word of words) {
    if (!(SCOPES as readonly string[]).includes(word)) return null;
    out.add(word as Scope);
  }
  return SCOPES.filter((s) => out.has(s));
}
