// The OAuth side of the MCP tests: a headless OAuthClientProvider for the official MCP client (the flow
// docs/oauth-and-mcp.md describes) whose browser step is done over HTTP with a dashboard session,
// and raw helpers for the authorization server's endpoints.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { DashboardSession } from "./dashboard";

export interface ConsentChoice {
  decision?: "approve" | "deny";
  mode?: "test" | "live";
  /** Grant the write scope when asked (default true). */
  write?: boolean;
}

/** The consent page's CSRF token (the hidden form field). */
export async function consentPage(session: DashboardSession, location: string) {
  const res = await fetch(new URL(location, session.base), { headers: { Cookie: session.cookie }, redirect: "manual" });
  const html = await res.text();
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? null;
  return { status: res.status, html, csrfToken, location: res.headers.get("location") };
}

/** The browser's part: GET /oauth/authorize, the consent page, the decision. Returns the final redirect. */
export async function consentOverHttp(session: DashboardSession, authorizeUrl: string, choice: ConsentChoice = {}): Promise<URL> {
  const first = await fetch(authorizeUrl, { redirect: "manual" });
  if (first.status !== 303) throw new Error(`authorize: ${first.status} ${await first.text()}`);
  const consentLocation = first.headers.get("location")!;
  if (!consentLocation.startsWith("/oauth/consent?")) return new URL(consentLocation);
  const page = await consentPage(session, consentLocation);
  if (page.status !== 200 || !page.csrfToken) throw new Error(`consent page: ${page.status} ${page.location ?? page.html.slice(0, 300)}`);
  const form = new URLSearchParams(consentLocation.slice("/oauth/consent?".length));
  form.set("csrf_token", page.csrfToken);
  form.set("decision", choice.decision ?? "approve");
  form.set("mode", choice.mode ?? "test");
  if (choice.write !== false) form.set("grant_write", "on");
  const decided = await fetch(`${session.base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: session.cookie, Origin: session.base },
    body: form,
  });
  if (decided.status !== 303) throw new Error(`consent decision: ${decided.status} ${await decided.text()}`);
  return new URL(decided.headers.get("location")!, session.base);
}

export class HeadlessProvider implements OAuthClientProvider {
  store: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; state?: string } = {};
  lastCode?: string;
  lastRedirect?: URL;
  savedTokens: OAuthTokens[] = [];

  constructor(
    readonly session: DashboardSession,
    readonly choice: ConsentChoice = {},
    readonly name = "test-agent",
  ) {}

  get redirectUrl() {
    return "http://127.0.0.1:9/callback";
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    this.store.state = `st_${randomUUID()}`;
    return this.store.state;
  }
  clientInformation() {
    return this.store.client;
  }
  saveClientInformation(ci: OAuthClientInformationMixed) {
    this.store.client = ci;
  }
  tokens() {
    return this.store.tokens;
  }
  saveTokens(t: OAuthTokens) {
    this.store.tokens = t;
    this.savedTokens.push(t);
  }
  saveCodeVerifier(v: string) {
    this.store.verifier = v;
  }
  codeVerifier() {
    return this.store.verifier!;
  }
  async redirectToAuthorization(url: URL) {
    const back = await consentOverHttp(this.session, url.toString(), this.choice);
    this.lastRedirect = back;
    // The SDK does not check state on the callback (docs/oauth-and-mcp.md): a real provider must, and so does this one.
    if (back.searchParams.get("state") !== this.store.state) throw new Error(`state mismatch: ${back}`);
    this.lastCode = back.searchParams.get("code") ?? undefined;
  }
}

export function mcpTransport(base: string, provider: OAuthClientProvider) {
  return new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
}

/** The official client from nothing: 401 -> discovery -> registration -> consent -> token -> connected. */
export async function connectWithOAuth(base: string, provider: HeadlessProvider): Promise<Client> {
  try {
    await new Client({ name: "test", version: "0" }).connect(mcpTransport(base, provider));
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    if (!provider.lastCode) throw new Error(`no code: ${provider.lastRedirect}`);
    await mcpTransport(base, provider).finishAuth(provider.lastCode);
  }
  const client = new Client({ name: "test", version: "0" });
  await client.connect(mcpTransport(base, provider));
  return client;
}

/** An MCP client with a fixed bearer (an API key or a raw access token), no OAuth provider. */
export async function connectWithBearer(base: string, token: string): Promise<Client> {
  const client = new Client({ name: "bearer", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

// --- raw OAuth over HTTP ---------------------------------------------------------------------------

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function registerClient(base: string, metadata: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "raw client",
      redirect_uris: ["http://127.0.0.1:9/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...metadata,
    }),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

export async function tokenRequest(base: string, form: Record<string, string | undefined>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** Registration, consent and a code, by hand: what the negative cases start from. */
export async function codeFor(session: DashboardSession, options: { scope?: string; choice?: ConsentChoice } = {}) {
  const base = session.base;
  const client = (await registerClient(base)).body;
  const { verifier, challenge } = pkce();
  const redirectUri = "http://127.0.0.1:9/callback";
  const state = `st_${randomUUID()}`;
  const back = await consentOverHttp(
    session,
    authorizeUrl(base, {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      scope: options.scope ?? "read write",
      resource: `${base}/mcp`,
    }),
    options.choice,
  );
  return { client, verifier, challenge, redirectUri, state, back, code: back.searchParams.get("code") };
}
