// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP authorization 2025-11-25):
// a client_id that is an HTTPS URL names a JSON document of the client's metadata, fetched here instead of a
// registration. The fetch goes through the outbound SSRF guard (lib/security/guarded-get.ts: public addresses
// only unless OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS, no redirect followed, at most 5 KiB, 5 s). The
// validated document is kept as the client's oauth_clients row (id = the URL, so grants and codes refer to it
// as to a registered client) until `document_expires_at`: the answer's Cache-Control max-age, held between one
// minute and a day. A document fetched and never authorized is deleted with the never-used registered clients
// (lib/oauth/purge.ts), which bounds the cache. Failures are OAuthError invalid_client with the reason.
import { z } from "zod";
import { sql, statement } from "../db";
import { env } from "../env";
import { guardedGet, type GuardedGetFailure } from "../security/guarded-get";
import { parseScopes } from "./config";
import { OAuthError } from "./errors";
import { OPTIONAL_CLIENT_METADATA } from "./client-metadata-fields";
import { redirectUriProblem } from "./redirect-uri-rules";

/** The draft's suggested ceiling for a metadata document. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const CLIENT_ID_MAX_LENGTH = 1000;
const MIN_TTL_SECONDS = 60;
const DEFAULT_TTL_SECONDS = 3600;
const MAX_TTL_SECONDS = 86_400;

export interface MetadataDocumentClient {
  id: string;
  name: string;
  redirectUris: string[];
}

/** Whether a client_id is meant as a URL (and so is read as a metadata document's address, not a registered id). */
export const isUrlClientId = (clientId: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);

const fail = (description: string) => new OAuthError("invalid_client", description, 400);

/** The draft's rules for the URL itself (section 3); it must also be in its normalized form, so one client has one id. */
function checkClientIdUrl(raw: string): void {
  if (raw.length > CLIENT_ID_MAX_LENGTH) throw fail(`client_id: a metadata document URL is at most ${CLIENT_ID_MAX_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail("client_id is not a valid URL.");
  }
  if (url.protocol !== "https:") throw fail("client_id: a client ID metadata document URL must use https.");
  if (url.pathname === "/" || url.pathname === "") throw fail("client_id: a client ID metadata document URL must have a path.");
  if (url.hash || raw.includes("#")) throw fail("client_id: a client ID metadata document URL must not contain a fragment.");
  if (url.username || url.password) throw fail("client_id: a client ID metadata document URL must not contain user information.");
  if (url.href !== raw || /\/\.\.?(\/|$)|%2e/i.test(url.pathname))
    throw fail(`client_id: a client ID metadata document URL must be in normalized form, without dot segments (${url.href}).`);
}

const Document = z.object({
  client_id: z.string(),
  client_name: z.string().min(1).max(100),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  ...OPTIONAL_CLIENT_METADATA,
});
type Document = z.infer<typeof Document>;

const FETCH_FAILURES: Record<GuardedGetFailure, string> = {
  refused_address: "its address is refused (it resolves to a loopback, private, link-local or reserved address)",
  timeout: `it did not answer within ${FETCH_TIMEOUT_MS / 1000} seconds`,
  too_large: `it is larger than ${DOCUMENT_MAX_BYTES} bytes`,
  network_error: "it could not be reached",
  too_many_redirects: "it answered with a redirect: the document must be served at the client_id URL itself",
};

/** The document's own rules: valid JSON of the required shape, naming itself, for a public client, with acceptable redirect URIs. */
export function validateDocument(clientId: string, body: Buffer): Document {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw fail("The client ID metadata document is not valid JSON.");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw fail("The client ID metadata document is not a JSON object.");
  const parsed = Document.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(`The client ID metadata document is invalid: ${issue.path.join(".") || "document"}: ${issue.message}.`);
  }
  const doc = parsed.data;
  if (doc.client_id !== clientId) throw fail("The client ID metadata document's client_id is not exactly its own URL.");
  // No shared secret can be published in a document (draft section 4.1): this server takes public clients with PKCE only.
  if ("client_secret" in json || "client_secret_expires_at" in json)
    throw fail("The client ID metadata document must not contain a client_secret.");
  if ((doc.token_endpoint_auth_method ?? "none") !== "none")
    throw fail("The client ID metadata document's token_endpoint_auth_method must be 'none' (public clients with PKCE).");
  const grantTypes = doc.grant_types ?? ["authorization_code"];
  if (!grantTypes.includes("authorization_code") || grantTypes.some((g) => g !== "authorization_code" && g !== "refresh_token"))
    throw fail("The client ID metadata document's grant_types must include authorization_code and name only it and refresh_token.");
  if ((doc.response_types ?? ["code"]).some((r) => r !== "code"))
    throw fail("The client ID metadata document's response_types may only be 'code'.");
  if (doc.scope !== undefined && parseScopes(doc.scope) === null)
    throw fail("The client ID metadata document's scope names a scope other than 'read' and 'write'.");
  for (const uri of doc.redirect_uris) {
    const problem = redirectUriProblem(uri, doc.application_type);
    if (problem) throw fail(`The client ID metadata document's redirect URI '${uri.slice(0, 200)}' ${problem}.`);
  }
  return doc;
}

/** Seconds the fetched document is kept: its Cache-Control max-age, held between a minute and a day. */
export function cacheSeconds(cacheControl: string | string[] | undefined): number {
  const value = Array.isArray(cacheControl) ? cacheControl.join(",") : (cacheControl ?? "");
  const directives = value
    .toLowerCase()
    .split(",")
    .map((part) => part.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return MIN_TTL_SECONDS;
  const maxAge = directives.find((d) => d.startsWith("max-age="));
  const seconds = maxAge ? Number(maxAge.slice("max-age=".length).replace(/"/g, "")) : NaN;
  if (!Number.isInteger(seconds) || seconds < 0) return DEFAULT_TTL_SECONDS;
  return Math.min(MAX_TTL_SECONDS, Math.max(MIN_TTL_SECONDS, seconds));
}

async function fetchDocument(clientId: string): Promise<{ doc: Document; ttlSeconds: number }> {
  const res = await guardedGet(clientId, {
    allowPrivate: env.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS,
    maxBytes: DOCUMENT_MAX_BYTES,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxRedirects: 0,
    headers: { accept: "application/json" },
  });
  if (!res.ok) throw fail(`The client ID metadata document could not be used: ${FETCH_FAILURES[res.failure]}.`);
  if (res.status !== 200) throw fail(`The client ID metadata document could not be fetched: its URL answered HTTP ${res.status}.`);
  return { doc: validateDocument(clientId, res.body), ttlSeconds: cacheSeconds(res.headers["cache-control"]) };
}

const CACHED = statement(
  "oauth_cimd_cached",
  "SELECT id, name, redirect_uris FROM oauth_clients WHERE id = $1 AND document_expires_at > now()",
);
// One row per URL whoever fetches it (concurrent fetches: the last write wins, each a validated document); never
// over a registered client's row (their ids never look like URLs, and the WHERE keeps it so).
const STORE = statement(
  "oauth_cimd_store",
  `INSERT INTO oauth_clients (id, name, redirect_uris, scope, metadata, document_expires_at)
   VALUES ($1, $2, $3, $4, $5::jsonb, now() + make_interval(secs => $6))
   ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris, scope = EXCLUDED.scope,
     metadata = EXCLUDED.metadata, document_expires_at = EXCLUDED.document_expires_at
   WHERE oauth_clients.document_expires_at IS NOT NULL
   RETURNING id, name, redirect_uris`,
);

/** The client a metadata document URL names: the cached document while fresh, else fetched, validated and cached. */
export async function metadataDocumentClient(clientId: string): Promise<MetadataDocumentClient> {
  checkClientIdUrl(clientId);
  type Row = { id: string; name: string; redirect_uris: string[] };
  const [cached] = await sql().rows<Row>(CACHED, [clientId]);
  if (cached) return { id: cached.id, name: cached.name, redirectUris: cached.redirect_uris };
  const { doc, ttlSeconds } = await fetchDocument(clientId);
  const [row] = await sql().rows<Row>(STORE, [
    clientId,
    doc.client_name,
    doc.redirect_uris,
    doc.scope ?? null,
    JSON.stringify(doc),
    ttlSeconds,
  ]);
  if (!row) throw fail("client_id names a registered client, not a metadata document.");
  return { id: row.id, name: row.name, redirectUris: row.redirect_uris };
}
