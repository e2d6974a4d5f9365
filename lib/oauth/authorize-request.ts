// Checks an authorization request (GET /oauth/authorize, the consent page and its POST read the same
// parameters). The client and its redirect URI are checked first: until both are known good an error is
// UnredirectableError. After that it is a BoundRequestError, which goes back to the client's redirect URI
// with `state` and `iss` (RFC 6749 4.1.2.1, RFC 9207) only from the consent form's POST once its checks
// passed (lib/dashboard/oauth-consent.ts); anywhere else it is shown, never redirected: anyone can register a client
// with any redirect URI, so a bad request alone must not make this server an open redirector (RFC 9700 4.11.2).
import { getDb } from "../db";
import { isUrlClientId, metadataDocumentClient, type MetadataDocumentClient } from "./client-metadata-document";
import { issuer, mcpResource, parseScopes, type Scope } from "./config";
import { OAuthError, type OAuthErrorCode } from "./errors";
import { PKCE_CHALLENGE } from "./secrets";

export interface AuthorizeRequest {
  client: { id: string; name: string };
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  scopes: Scope[];
}

/** An error that must not be redirected: the client or redirect URI is not known good. */
export class UnredirectableError extends OAuthError {}

/** An error in a request tied to a known client and one of its registered redirect URIs. */
export class BoundRequestError extends OAuthError {
  constructor(
    readonly redirectUri: string,
    readonly state: string | null,
    error: OAuthErrorCode,
    description: string,
  ) {
    super(error, description);
  }
}

/** An error to send back to the client's (verified) redirect URI. */
export class RedirectedError extends Error {
  constructor(
    readonly location: string,
    readonly error: OAuthErrorCode,
  ) {
    super(error);
  }
}

/** The parameters the consent form carries over (everything the authorization request said). */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "scope",
  "resource",
] as const;

/** The redirect URI with the given parameters added to its query (its own query kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

export function errorRedirect(redirectUri: string, state: string | null, error: OAuthErrorCode, description: string): RedirectedError {
  return new RedirectedError(redirectWith(redirectUri, { error, error_description: description, state, iss: issuer() }), error);
}

function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new UnredirectableError("invalid_request", `The parameter '${name}' is repeated.`);
  return values[0] || null;
}

/** A registered client (POST /oauth/register), or the one an HTTPS client_id's metadata document describes. */
async function findClient(clientId: string): Promise<MetadataDocumentClient> {
  if (isUrlClientId(clientId)) {
    try {
      return await metadataDocumentClient(clientId);
    } catch (err) {
      throw err instanceof OAuthError ? new UnredirectableError(err.error, err.description, 400) : err;
    }
  }
  const client =
    clientId.length <= 64
      ? await getDb().oAuthClient.findUnique({ where: { id: clientId }, select: { id: true, name: true, redirectUris: true } })
      : null;
  if (!client) throw new UnredirectableError("invalid_client", "Unknown client_id: register the client first (POST /oauth/register).", 400);
  return client;
}

export async function checkAuthorizeRequest(params: URLSearchParams): Promise<AuthorizeRequest> {
  const clientId = single(params, "client_id");
  if (!clientId) throw new UnredirectableError("invalid_request", "client_id is required.");
  const client = await findClient(clientId);
  const requested = single(params, "redirect_uri");
  // Exact string match against a registered URI (OAuth 2.1 2.3.1); absent only when exactly one is registered.
  let redirectUri: string;
  if (requested === null) {
    if (client.redirectUris.length !== 1)
      throw new UnredirectableError("invalid_request", "redirect_uri is required: the client registered several.");
    redirectUri = client.redirectUris[0];
  } else if (client.redirectUris.includes(requested)) {
    redirectUri = requested;
  } else {
    throw new UnredirectableError(
      "invalid_request",
      "redirect_uri does not exactly match any redirect URI this client registered (or its metadata document lists).",
    );
  }

  const state = params.getAll("state").length > 1 ? null : single(params, "state");
  const fail = (error: OAuthErrorCode, description: string) => new BoundRequestError(redirectUri, state, error, description);
  for (const name of AUTHORIZE_PARAMS)
    if (params.getAll(name).length > 1) throw fail("invalid_request", `The parameter '${name}' is repeated.`);
  if (state !== null && state.length > 500) throw fail("invalid_request", "state is longer than 500 characters.");

  const responseType = single(params, "response_type");
  if (responseType !== "code") throw fail("unsupported_response_type", "Only response_type=code is supported (no implicit grant).");
  const codeChallenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (!codeChallenge) throw fail("invalid_request", "PKCE is required: send code_challenge and code_challenge_method=S256.");
  if (method !== "S256") throw fail("invalid_request", "code_challenge_method must be S256.");
  if (!PKCE_CHALLENGE.test(codeChallenge))
    throw fail("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier.");
  const scopes = parseScopes(single(params, "scope"));
  if (!scopes) throw fail("invalid_scope", "Unknown scope: the scopes are 'read' and 'write'.");
  // RFC 8707: the token is for /mcp of this deployment only; absent, it is bound to that anyway.
  const resource = single(params, "resource") ?? mcpResource();
  if (resource !== mcpResource()) throw fail("invalid_target", `This server issues tokens only for the resource ${mcpResource()}.`);
  return { client: { id: client.id, name: client.name }, redirectUri, state, codeChallenge, resource, scopes };
}
