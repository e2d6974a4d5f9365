// Issue 35 item 4: MCP authorization's newer parts. The official MCP client (@modelcontextprotocol/sdk) whose
// client_id is the HTTPS URL of its client ID metadata document connects through OAuth without registering: the
// document is served over TLS by a certificate of a CA made here, which the service trusts through
// NODE_EXTRA_CA_CERTS (its loopback address through the SSRF guard's private-address allowance, on by default for
// a loopback BASE_URL). A read-scope token calling create_checkout is answered 403 with the insufficient_scope
// challenge; the SDK authorizes again with the challenged scope and the call succeeds. Documents that name another
// client_id, or a redirect URI they do not list, are refused; application_type decides the redirect URI rules.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { signUpOverHttp, type DashboardSession } from "../helpers/dashboard";
import { authorizeUrl, HeadlessProvider, pkce, registerClient, tokenRequest } from "../helpers/oauth";
import { startTestServer } from "../helpers/server";
import { makeTestCa, startHttpsServer, type Served } from "../helpers/test-ca";

const REDIRECT = "http://127.0.0.1:9/callback";
const routes = new Map<string, Served>();
let documents: Awaited<ReturnType<typeof startHttpsServer>>;
let server: ServerProcess;
let base: string;
let session: DashboardSession;
let db: pg.Client;

/** Serves a metadata document at `path` (its client_id is its own URL unless `fields` says otherwise); returns the URL. */
function serveDocument(path: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}): string {
  const url = `${documents.origin}${path}`;
  const document = {
    client_id: url,
    client_name: "CIMD test agent",
    redirect_uris: [REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...fields,
  };
  routes.set(path, { body: JSON.stringify(document), headers: { "Cache-Control": "max-age=300", ...headers } });
  return url;
}

/** The HeadlessProvider (tests/helpers/oauth.ts) naming its metadata document instead of registering. */
class MetadataDocumentProvider extends HeadlessProvider {
  authorizeUrls: URL[] = [];
  constructor(
    session: DashboardSession,
    readonly clientMetadataUrl: string,
    choice: { mode: "test"; write: boolean },
  ) {
    super(session, choice, "CIMD test agent");
  }
  /**
   * This client keeps no refresh token. @modelcontextprotocol/sdk 1.x answers a 403 insufficient_scope by refreshing
   * first when it holds one, which cannot widen the scope (RFC 6749 6), and then gives up without asking the user
   * (modelcontextprotocol/typescript-sdk#2255, fixed in the 2.x client); without one it goes straight to authorization.
   */
  saveTokens(tokens: OAuthTokens) {
    const { refresh_token: _dropped, ...kept } = tokens;
    super.saveTokens(kept);
  }
  async redirectToAuthorization(url: URL) {
    this.authorizeUrls.push(url);
    await super.redirectToAuthorization(url);
  }
}

/** Every URL the SDK fetched (discovery, authorization server, token), to show that nothing registered. */
const fetched: string[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  fetched.push(input instanceof Request ? input.url : String(input));
  return fetch(input, init);
};

function transportFor(provider: MetadataDocumentProvider) {
  return new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider, fetch: recordingFetch });
}

async function authorizeStatus(params: Record<string, string | undefined>) {
  const { challenge } = pkce();
  const res = await fetch(
    authorizeUrl(base, {
      response_type: "code",
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: `st_${randomUUID()}`,
      scope: "read",
      resource: `${base}/mcp`,
      ...params,
    }),
    { redirect: "manual" },
  );
  return { status: res.status, location: res.headers.get("location"), body: res.status === 400 ? ((await res.json()) as any) : null };
}

beforeAll(async () => {
  const ca = await makeTestCa();
  documents = await startHttpsServer(ca, routes);
  server = await startTestServer({
    NODE_EXTRA_CA_CERTS: ca.caFile,
    OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS: "1",
    RATE_LIMIT_MAX: "100000",
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
  });
  base = server.url;
  session = await signUpOverHttp({ name: "CIMD merchant" }, base);
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await server?.stop();
  await documents?.close();
});

describe("client ID metadata documents with the official MCP client", () => {
  it("connects without registration, lists every tool with a read token, and steps up to write for create_checkout", async () => {
    const metadata = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);

    const documentUrl = serveDocument(`/agents/${randomUUID()}/client.json`);
    const provider = new MetadataDocumentProvider(session, documentUrl, { mode: "test", write: false });
    // From nothing: 401 -> discovery -> authorization with the URL as client_id (no /oauth/register) -> code.
    await expect(new Client({ name: "cimd", version: "0" }).connect(transportFor(provider))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizeUrls[0].searchParams.get("client_id")).toBe(documentUrl);
    await transportFor(provider).finishAuth(provider.lastCode!);
    expect(provider.store.client?.client_id).toBe(documentUrl);
    expect(provider.store.tokens?.scope).toBe("read");
    expect(fetched.some((url) => url.includes("/oauth/register"))).toBe(false);
    expect(fetched).toContain(`${base}/oauth/token`);
    // The service fetched the document once and keeps it as the client's row, with its expiry.
    const documentPath = new URL(documentUrl).pathname;
    expect(documents.hits.get(documentPath)).toBe(1);
    const { rows } = await db.query("SELECT name, redirect_uris, document_expires_at FROM oauth_clients WHERE id = $1", [documentUrl]);
    expect(rows[0]).toMatchObject({ name: "CIMD test agent", redirect_uris: [REDIRECT] });
    expect(rows[0].document_expires_at.getTime()).toBeGreaterThan(Date.now() + 200_000);

    const transport = transportFor(provider);
    const client = new Client({ name: "cimd", version: "0" });
    await client.connect(transport);
    // A token sees every tool, write tools included: their scope is asked for when called.
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["create_checkout", "create_refund", "list_payments"]));
    expect((await client.callTool({ name: "list_payments", arguments: {} })).isError).toBeFalsy();

    // The raw challenge: 403, insufficient_scope, the scopes to ask for (the token's and the needed one), the metadata.
    const raw = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${provider.store.tokens!.access_token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "create_checkout", arguments: { amount: 100, currency: "usd" } },
      }),
    });
    expect(raw.status).toBe(403);
    const challenge = raw.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="read write", /);
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect((await raw.json()).error).toMatchObject({
      code: "FORBIDDEN",
      details: { reason: "insufficient_scope", requiredScope: "write" },
    });

    // The SDK meets the same 403 and authorizes again with the challenged scope; the merchant grants write this time.
    provider.choice.write = true;
    const call = { name: "create_checkout", arguments: { amount: 1250, currency: "usd", description: "stepped up" } };
    await expect(client.callTool(call)).rejects.toBeInstanceOf(UnauthorizedError);
    const stepUp = provider.authorizeUrls.at(-1)!;
    expect(provider.authorizeUrls).toHaveLength(2);
    expect(stepUp.searchParams.get("scope")).toBe("read write");
    expect(stepUp.searchParams.get("client_id")).toBe(documentUrl);
    await transport.finishAuth(provider.lastCode!);
    expect(provider.store.tokens?.scope).toBe("read write");
    const created: any = await client.callTool(call);
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ object: "checkout", amount: 1250, currency: "USD", livemode: false });
    // Still the cached document: the second authorization and both token requests did not fetch it again.
    expect(documents.hits.get(documentPath)).toBe(1);
    await client.close();
  });
});

describe("documents that are refused", () => {
  it("a document whose client_id is not its own URL: invalid_client at /oauth/authorize and /oauth/token", async () => {
    const url = serveDocument(`/agents/${randomUUID()}/client.json`, { client_id: `${documents.origin}/someone-else.json` });
    const res = await authorizeStatus({ client_id: url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "invalid_client",
      error_description: expect.stringContaining("client_id is not exactly its own URL"),
    });
    const token = await tokenRequest(base, { grant_type: "authorization_code", client_id: url, code: "x", code_verifier: pkce().verifier });
    expect(token.status).toBe(401);
    expect(token.body.error).toBe("invalid_client");
  });

  it("a redirect URI the document does not list is refused, never redirected to", async () => {
    const url = serveDocument(`/agents/${randomUUID()}/client.json`);
    const res = await authorizeStatus({ client_id: url, redirect_uri: "http://127.0.0.1:9/elsewhere" });
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("does not exactly match") });
    // The listed one passes (to the consent page).
    const ok = await authorizeStatus({ client_id: url });
    expect(ok.status).toBe(303);
    expect(ok.location).toMatch(/^\/oauth\/consent\?/);
  });

  it("a document with a client secret, another auth method, a bad shape, too large, missing or behind a redirect", async () => {
    const cases: [string, string][] = [
      [serveDocument(`/s/${randomUUID()}.json`, { client_secret: "shh" }), "must not contain a client_secret"],
      [serveDocument(`/s/${randomUUID()}.json`, { token_endpoint_auth_method: "client_secret_basic" }), "token_endpoint_auth_method"],
      [serveDocument(`/s/${randomUUID()}.json`, { redirect_uris: [] }), "redirect_uris"],
      [serveDocument(`/s/${randomUUID()}.json`, { padding: "p".repeat(6000) }), "larger than 5120 bytes"],
      [`${documents.origin}/s/${randomUUID()}-missing.json`, "answered HTTP 404"],
    ];
    const moved = `/s/${randomUUID()}-moved.json`;
    routes.set(moved, { status: 302, body: "", headers: { Location: serveDocument(`/s/${randomUUID()}.json`) } });
    cases.push([`${documents.origin}${moved}`, "redirect"]);
    for (const [url, reason] of cases) {
      const res = await authorizeStatus({ client_id: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe("invalid_client");
      expect(res.body.error_description, url).toContain(reason);
    }
  });

  it("client_id URLs that are not https, have no path, or are not normalized are refused before any fetch", async () => {
    const before = [...documents.hits.values()].reduce((a, b) => a + b, 0);
    for (const url of [
      `http://127.0.0.1:9/client.json`,
      documents.origin + "/",
      `${documents.origin}/a/../client.json`,
      `${documents.origin}/client.json#frag`,
    ]) {
      const res = await authorizeStatus({ client_id: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe("invalid_client");
    }
    expect([...documents.hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});

describe("application_type and redirect URIs", () => {
  it("a web document may not use a private-use scheme; a native one may", async () => {
    const web = serveDocument(`/t/${randomUUID()}.json`, { application_type: "web", redirect_uris: ["com.example.agent:/callback"] });
    const refused = await authorizeStatus({ client_id: web, redirect_uri: "com.example.agent:/callback" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("web application") });
    const native = serveDocument(`/t/${randomUUID()}.json`, {
      application_type: "native",
      redirect_uris: ["com.example.agent:/callback", REDIRECT],
    });
    expect((await authorizeStatus({ client_id: native, redirect_uri: "com.example.agent:/callback" })).status).toBe(303);
  });

  it("registration honours application_type when stated and keeps its former rules when not", async () => {
    const web = await registerClient(base, { application_type: "web", redirect_uris: ["com.example.agent:/callback"] });
    expect(web.status).toBe(400);
    expect(web.body.error).toBe("invalid_redirect_uri");
    const native = await registerClient(base, { application_type: "native", redirect_uris: ["com.example.agent:/callback"] });
    expect(native.status).toBe(201);
    expect(native.body.application_type).toBe("native");
    const unstated = await registerClient(base, { redirect_uris: ["com.example.agent:/callback", REDIRECT] });
    expect(unstated.status).toBe(201);
    expect((await registerClient(base, { application_type: "desktop" })).body.error).toBe("invalid_client_metadata");
    // This server's BASE_URL is loopback (a local installation): a web client may use a loopback redirect URI here.
    expect((await registerClient(base, { application_type: "web", redirect_uris: [REDIRECT] })).status).toBe(201);
  });
});
