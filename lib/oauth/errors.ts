// OAuth errors (RFC 6749 5.2, RFC 7591 3.2.2, RFC 8707 2): a JSON body { error, error_description } and
// the RFC's status. Authorization-endpoint errors are redirected to the client instead, when the client and
// redirect URI are known good (lib/oauth/authorize-request.ts); never to an unverified address.
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error"
  | "temporarily_unavailable";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
  ) {
    super(description);
    this.name = "OAuthError";
  }

  body() {
    return { error: this.error, error_description: this.description };
  }
}
