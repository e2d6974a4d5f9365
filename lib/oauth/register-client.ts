// RFC 7591 dynamic client registration for public clients (PKCE, no secret). Redirect URIs by the client's
// application_type when it states one (lib/oauth/redirect-uri-rules.ts): https, or http on a loopback address
// (RFC 8252 7.3, native apps) or a private-use scheme (RFC 8252 7.1, reverse domain name with a dot); never a
// fragment, never userinfo. Unknown metadata is ignored, as RFC 7591 allows.
import { z } from "zod";
import { getDb } from "../db";
import { randomBase62 } from "../ids";
import { parseScopes } from "./config";
import { OAuthError } from "./errors";
import { OPTIONAL_CLIENT_METADATA } from "./client-metadata-fields";
import { redirectUriProblem } from "./redirect-uri-rules";

const MAX_REDIRECT_URIS = 10;

const RegistrationBody = z.object({
  client_name: z.string().max(100).optional(),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(MAX_REDIRECT_URIS),
  ...OPTIONAL_CLIENT_METADATA,
});

export async function registerClient(body: unknown) {
  const parsed = RegistrationBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || "body";
    const error = field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(error, `${field}: ${issue.message}`);
  }
  const input = parsed.data;
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri, input.application_type);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris: '${uri.slice(0, 200)}' ${problem}.`);
  }
  const method = input.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    throw new OAuthError("invalid_client_metadata", "token_endpoint_auth_method: only 'none' is supported (public clients with PKCE).");
  }
  const grantTypes = input.grant_types ?? ["authorization_code"];
  if (grantTypes.some((g) => g !== "authorization_code" && g !== "refresh_token")) {
    throw new OAuthError("invalid_client_metadata", "grant_types: only authorization_code and refresh_token are supported.");
  }
  if (!grantTypes.includes("authorization_code"))
    throw new OAuthError("invalid_client_metadata", "grant_types must include authorization_code.");
  const responseTypes = input.response_types ?? ["code"];
  if (responseTypes.some((r) => r !== "code"))
    throw new OAuthError("invalid_client_metadata", "response_types: only 'code' is supported (no implicit grant).");
  if (input.scope !== undefined && parseScopes(input.scope) === null)
    throw new OAuthError("invalid_client_metadata", "scope: only 'read' and 'write' exist.");

  const id = `mcpc_${randomBase62(24)}`;
  const issuedAt = Math.floor(Date.now() / 1000);
  const metadata = {
    client_id: id,
    client_id_issued_at: issuedAt,
    client_name: input.client_name ?? "Unnamed client",
    redirect_uris: input.redirect_uris,
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: "none",
    ...(input.application_type !== undefined ? { application_type: input.application_type } : {}),
    ...(input.scope !== undefined ? { scope: input.scope } : {}),
    ...(input.client_uri !== undefined ? { client_uri: input.client_uri } : {}),
    ...(input.software_id !== undefined ? { software_id: input.software_id } : {}),
    ...(input.software_version !== undefined ? { software_version: input.software_version } : {}),
  };
  await getDb().oAuthClient.create({
    data: { id, name: metadata.client_name, redirectUris: input.redirect_uris, scope: input.scope ?? null, metadata },
  });
  return metadata;
}
