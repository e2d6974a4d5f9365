// "Is this request from a verified agent?" on a merchant's own server (docs/sdk.md "Verify agent requests"):
// verifyAgentRequest(request, options) takes a fetch `Request` (Next.js middleware and route handlers, Hono,
// Workers) or a Node `IncomingMessage` (Express, node:http) with its raw body, and checks its RFC 9421 agent
// signature (Web Bot Auth by default) either
//   - locally: the key from the `Signature-Agent` operator's directory, fetched and cached here
//     (agent-directories.ts), for the origins the merchant trusts (`trustedOrigins`), Ed25519 or RSA-PSS-SHA512
//     through WebCrypto, a covered content-digest against the body; nonces through an optional `nonceStore`; or
//   - through the service: `POST <baseUrl>/<network>/verify` with the merchant's API key (`service`), which also
//     knows the agents registered on the service and spends the nonce.
// The answer is `{ valid: true, agent }` or `{ valid: false, reason }` with the service's reason codes.
import { directoryKey, DIRECTORY_PATH } from "./agent-directories";
import {
  algMatches,
  contentDigestMatches,
  MalformedSignatureError,
  parseMessageSignatures,
  signatureAgentOf,
  signatureBaseOf,
  signatureVerifies,
  type AgentSignatureAlgorithm,
  type MessageSignature,
  type SignedMessage,
} from "./agent-message-signature";
import { ServiceError } from "./errors";
import type { FetchLike } from "./transport";

/** The parts of a Node `IncomingMessage` (node:http, Express) the verifier reads. */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket has `encrypted: true`. */
  socket?: unknown;
}

export type AgentVerificationReason =
  | "missing_signature"
  | "malformed_signature"
  | "unsupported_tag"
  | "missing_field"
  | "window_too_long"
  | "not_yet_valid"
  | "expired"
  | "authority_mismatch"
  | "content_digest_mismatch"
  | "unknown_agent"
  | "directory_unavailable"
  | "unknown_key"
  | "algorithm_mismatch"
  | "bad_signature"
  | "replayed_nonce"
  | (string & {});

export interface VerifiedAgentRequest {
  valid: true;
  tag: string;
  agent: {
    /** The operator's origin (local verification), or what the service answered (`operator`, null for its own agents). */
    operator: string | null;
    keyid: string;
    algorithm: AgentSignatureAlgorithm;
    signatureAgent: string | null;
    /** Through the service: the agent key registered there (`agk_...`) and its name; null otherwise. */
    agentKeyId: string | null;
    name: string | null;
  };
  nonce: string | null;
  created: number;
  expires: number;
}

export type AgentRequestVerification = VerifiedAgentRequest | { valid: false; reason: AgentVerificationReason };

export interface VerifyAgentRequestOptions {
  /** Local verification: the operator origins whose directories are fetched and trusted, or "*" (any https origin). */
  trustedOrigins?: readonly string[] | "*";
  /** Verify through the service instead (it knows the agents registered there and spends the nonce). */
  service?: { baseUrl: string; apiKey: string; network?: "mastercard" | "visa"; fetch?: FetchLike };
  /** The raw body: required for a Node request whose signature covers content-digest (a fetch Request's is read from a clone). */
  body?: string | Uint8Array;
  /** The tags accepted (default ["web-bot-auth"]). */
  tags?: readonly string[];
  /** The authority the request must have been signed for (default: its own Host, which the signature covers). */
  expectedAuthority?: string;
  /** Refuse a signature that does not cover content-digest (missing_field). */
  requireContentDigest?: boolean;
  /** The longest `expires - created` accepted, seconds (default 480). */
  maxWindowSeconds?: number;
  /** Replay protection: resolves true only the first time a key is consumed (e.g. `inMemoryConsumedStore()`). */
  nonceStore?: { consume(key: string): Promise<boolean> };
  /** A Node request's scheme (default: https when its socket is TLS, else http). */
  scheme?: "http" | "https";
  /** Unix seconds (tests). */
  now?: number;
  /** Directory fetches (default: the global fetch). */
  fetch?: FetchLike;
  /** Least seconds between two fetches of one directory for unknown keyids, and how long a failure is remembered (default 60). */
  refetchIntervalSeconds?: number;
  /** Accept a directory without its own signatures (default false, as the Web Bot Auth draft's verifiers). */
  allowUnsignedDirectories?: boolean;
}

const REQUIRED_PARAMS = ["created", "expires", "keyid"] as const;
const SKEW_SECONDS = 5;

/** A fetch Request or a Node IncomingMessage as the verifier reads them. */
interface Received {
  message: SignedMessage;
  url: string;
  body(): Promise<Uint8Array | null>;
}

const bytesOf = (body: string | Uint8Array) => (typeof body === "string" ? new TextEncoder().encode(body) : body);

function received(request: Request | NodeRequestLike, options: VerifyAgentRequestOptions): Received {
  if (typeof Request !== "undefined" && request instanceof Request) {
    const url = new URL(request.url);
    const authority = request.headers.get("host") ?? url.host;
    return {
      message: {
        method: request.method,
        scheme: url.protocol.slice(0, -1),
        authority,
        path: url.pathname,
        query: url.search.slice(1),
        header: (n) => request.headers.get(n),
      },
      url: `${url.protocol}//${authority}${url.pathname}${url.search}`,
      // a clone, so the handler can still read the body (null when it was read already)
      body: async () =>
        options.body !== undefined ? bytesOf(options.body) : request.bodyUsed ? null : new Uint8Array(await request.clone().arrayBuffer()),
    };
  }
  const node = request as NodeRequestLike;
  const header = (name: string) => {
    const v = node.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  const scheme = options.scheme ?? ((node.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http");
  const authority = header("host") ?? header(":authority") ?? "";
  const target = new URL(node.url ?? "/", `${scheme}://${authority || "localhost"}`);
  return {
    message: { method: node.method ?? "GET", scheme, authority, path: target.pathname, query: target.search.slice(1), header },
    url: `${scheme}://${authority}${target.pathname}${target.search}`,
    body: async () => (options.body !== undefined ? bytesOf(options.body) : null),
  };
}

const refuse = (reason: AgentVerificationReason): AgentRequestVerification => ({ valid: false, reason });

/** The signature of an accepted tag with what it must carry, or why not. */
function chooseSignature(message: SignedMessage, options: VerifyAgentRequestOptions): MessageSignature | AgentVerificationReason {
  const input = message.header("signature-input");
  const signature = message.header("signature");
  if (!input || !signature) return "missing_signature";
  let all: MessageSignature[];
  try {
    all = parseMessageSignatures(input, signature);
  } catch (err) {
    if (err instanceof MalformedSignatureError) return "malformed_signature";
    throw err;
  }
  const tags = options.tags ?? ["web-bot-auth"];
  const sig = all.find((s) => tags.includes(String(s.params.get("tag") ?? "")));
  if (!sig) return "unsupported_tag";
  const covered = new Set(sig.components.map((c) => c.name));
  if (!covered.has("@authority") || REQUIRED_PARAMS.some((p) => sig.params.get(p) === undefined)) return "missing_field";
  if (message.header("signature-agent") !== null && !covered.has("signature-agent")) return "missing_field";
  if (options.requireContentDigest && !covered.has("content-digest")) return "missing_field";
  const created = sig.params.get("created");
  const expires = sig.params.get("expires");
  if (!Number.isInteger(created) || !Number.isInteger(expires) || typeof sig.params.get("keyid") !== "string") return "malformed_signature";
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const [c, e] = [created as number, expires as number];
  if (e < c || e - c > (options.maxWindowSeconds ?? 480)) return "window_too_long";
  if (c > now + SKEW_SECONDS) return "not_yet_valid";
  if (e <= now) return "expired";
  if (options.expectedAuthority !== undefined && message.authority.toLowerCase() !== options.expectedAuthority.toLowerCase())
    return "authority_mismatch";
  return sig;
}

/** The trusted operator's origin a Signature-Agent URL names (its origin or its directory), or null. */
function trustedOperator(url: string, trusted: readonly string[] | "*"): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.username || parsed.password || parsed.search || parsed.hash) return null;
  if (parsed.pathname !== "/" && parsed.pathname !== DIRECTORY_PATH) return null;
  if (trusted === "*") return parsed.protocol === "https:" ? parsed.origin : null;
  return trusted.some((t) => URL.canParse(t) && new URL(t).origin === parsed.origin) ? parsed.origin : null;
}

async function verifyLocally(request: Received, options: VerifyAgentRequestOptions): Promise<AgentRequestVerification> {
  const sig = chooseSignature(request.message, options);
  if (typeof sig === "string") return refuse(sig);
  if (sig.components.some((c) => c.name === "content-digest")) {
    const body = await request.body();
    if (body === null || !(await contentDigestMatches(request.message.header("content-digest"), body)))
      return refuse("content_digest_mismatch");
  }
  const signatureAgent = signatureAgentOf(request.message.header("signature-agent"), sig.label);
  const operator = signatureAgent === null ? null : trustedOperator(signatureAgent, options.trustedOrigins ?? []);
  if (operator === null) return refuse("unknown_agent");
  const keyid = sig.params.get("keyid") as string;
  const key = await directoryKey(operator, keyid, {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    refetchIntervalSeconds: options.refetchIntervalSeconds ?? 60,
    allowUnsignedDirectories: options.allowUnsignedDirectories ?? false,
  });
  if (key === "unavailable") return refuse("directory_unavailable");
  if (key === "unknown") return refuse("unknown_key");
  if (!algMatches(key.algorithm, sig.params.get("alg"))) return refuse("algorithm_mismatch");
  const base = signatureBaseOf(request.message, sig);
  if (base === null || !(await signatureVerifies(base, sig.signature, key))) return refuse("bad_signature");
  const nonce = typeof sig.params.get("nonce") === "string" ? (sig.params.get("nonce") as string) : null;
  if (options.nonceStore) {
    if (nonce === null) return refuse("missing_field");
    if (!(await options.nonceStore.consume(`${operator} ${keyid} ${nonce}`))) return refuse("replayed_nonce");
  }
  return {
    valid: true,
    tag: String(sig.params.get("tag")),
    agent: { operator, keyid, algorithm: key.algorithm, signatureAgent, agentKeyId: null, name: null },
    nonce,
    created: sig.params.get("created") as number,
    expires: sig.params.get("expires") as number,
  };
}

/** The fields the service needs: the signature's own and every field it covers (never cookies or credentials). */
function coveredHeaders(message: SignedMessage): Record<string, string> {
  const names = new Set(["signature-input", "signature", "signature-agent", "content-digest"]);
  try {
    for (const sig of parseMessageSignatures(message.header("signature-input") ?? "", message.header("signature") ?? ""))
      for (const c of sig.components) if (!c.name.startsWith("@")) names.add(c.name);
  } catch {
    // the service answers malformed_signature itself
  }
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = message.header(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** What POST /<network>/verify answers (docs/cards.md "Verify for your own server"), or its error body. */
interface ServiceVerifyAnswer {
  valid?: boolean;
  reasonCode?: string;
  tag?: string;
  agent?: {
    operator?: string | null;
    keyid?: string;
    algorithm?: AgentSignatureAlgorithm;
    signatureAgent?: string | null;
    agentKeyId?: string | null;
    name?: string | null;
  };
  nonce?: string | null;
  created?: string;
  expires?: string;
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

async function verifyThroughService(
  request: Received,
  service: NonNullable<VerifyAgentRequestOptions["service"]>,
): Promise<AgentRequestVerification> {
  const body = await request.body();
  const endpoint = `${service.baseUrl.replace(/\/+$/, "")}/${service.network ?? "mastercard"}/verify`;
  const res = await (service.fetch ?? ((input, init) => fetch(input, init)))(endpoint, {
    method: "POST",
    headers: { authorization: `Bearer ${service.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      method: request.message.method,
      url: request.url,
      headers: coveredHeaders(request.message),
      ...(body && body.length > 0 ? { body: new TextDecoder().decode(body) } : {}),
    }),
  });
  const answer = (await res.json().catch(() => null)) as ServiceVerifyAnswer | null;
  if (!res.ok || !answer || typeof answer.valid !== "boolean") {
    throw new ServiceError({
      code: answer?.error?.code ?? "invalid_response",
      status: res.status,
      message: answer?.error?.message ?? `${endpoint} answered ${res.status}`,
      details: answer?.error?.details ?? {},
    });
  }
  if (!answer.valid) return refuse(String(answer.reasonCode));
  const agent = answer.agent ?? {};
  return {
    valid: true,
    tag: String(answer.tag),
    agent: {
      operator: agent.operator ?? null,
      keyid: String(agent.keyid),
      algorithm: agent.algorithm ?? "ed25519",
      signatureAgent: agent.signatureAgent ?? null,
      agentKeyId: agent.agentKeyId ?? null,
      name: agent.name ?? null,
    },
    nonce: answer.nonce ?? null,
    created: Math.floor(Date.parse(String(answer.created)) / 1000),
    expires: Math.floor(Date.parse(String(answer.expires)) / 1000),
  };
}

/**
 * Verifies an agent's signed request on your own server: locally against the directories of the operators you
 * trust (`trustedOrigins`), or through the service (`service`). Refusals are answers (`valid: false` with a
 * reason code); only a failure to reach the service throws (ServiceError).
 */
export async function verifyAgentRequest(
  request: Request | NodeRequestLike,
  options: VerifyAgentRequestOptions = {},
): Promise<AgentRequestVerification> {
  const view = received(request, options);
  return options.service ? verifyThroughService(view, options.service) : verifyLocally(view, options);
}
