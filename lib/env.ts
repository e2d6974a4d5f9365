// Every setting of the service, parsed once from the environment with defaults (docs/operations.md).
// Nothing else reads process.env.
import ipaddr from "ipaddr.js";
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** An object keyed by CAIP-2 ids of EVM chains (x402 v2 names networks so), each value checked by `value`. */
function byEvmNetwork<T extends z.ZodType>(value: T) {
  return z.record(z.string(), value).superRefine((record, ctx) => {
    for (const key of Object.keys(record)) {
      if (!/^eip155:[1-9]\d{0,18}$/.test(key))
        ctx.addIssue({ code: "custom", path: [key], message: "a CAIP-2 EVM network id, e.g. eip155:8453" });
    }
  });
}

/** A setting holding a JSON object, checked by `schema`; unset or blank: {}. */
function jsonObject<T extends z.ZodType<Record<string, unknown>>>(schema: T) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text?.trim()) return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "not JSON: a JSON object is expected" });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

const WebhookSchedule = z
  .string()
  .regex(/^\d+(,\d+)*$/, "comma-separated whole seconds")
  .transform((value) => value.split(",").map(Number));

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.string().min(1).optional(),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    /** Longest a new database connection may take to open; longer counts as the database being unreachable. */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    /** While the database is unreachable, how often one connection is tried again (the breaker's half-open trial). */
    DB_CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(10).max(60_000).default(250),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    BASE_URL: z.string().url().optional(),
    CRON_SECRET: z.string().optional(),
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(120),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
    REDIS_URL: z.string().optional(),
    /** Largest accepted request body, in bytes. */
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    /** How long an in-flight idempotency claim blocks its key before a crashed holder is presumed dead. */
    IDEMPOTENCY_LOCK_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How long stored idempotent responses are kept (docs/api-reference.md "Idempotency": at least 24 h). */
    IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(24).default(24),
    /** How many proxies in front of the app append to X-Forwarded-For (0: the socket peer is the client). */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
    /** Enables the x-test-fault request header used by crash and failure tests. Never set in production. */
    FAULT_INJECTION: flag,
    /**
     * Seconds after capture before a PaymentIntent settles (funds pending -> payable) on a tick. Unset:
     * 0 in test mode (the next tick), 172800 (2 days, like Stripe's standard payout delay) in live mode.
     */
    SETTLEMENT_DELAY_SECONDS: z.coerce.number().int().min(0).optional(),
    /**
     * Test mode's disputes (docs/disputes.md): seconds after capture before the tick opens the dispute of a payment made
     * with a dispute test method (pm_card_createDispute*, 4000000000000259, ...), and after evidence is submitted
     * before the tick decides it (winning_evidence / losing_evidence).
     */
    DISPUTE_TEST_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(2),
    /** Billing countries (ISO 3166-1 alpha-2, comma-separated) whose charges are blocked before any charge. */
    SANCTIONED_COUNTRIES: z
      .string()
      .default("CU,IR,KP,SY")
      .transform((value) =>
        value
          .split(",")
          .map((code) => code.trim().toUpperCase())
          .filter(Boolean),
      ),
    /** The rail that moves live-mode money. "none": live captures fail with 502 UPSTREAM_ERROR. "test": staging only. */
    LIVE_RAIL: z.enum(["none", "test"]).default("none"),
    /**
     * Live x402 on a chain (docs/x402.md, "Going live"): CAIP-2 network -> JSON-RPC URL, as JSON
     * ('{"eip155:8453":"https://..."}'). A network without one is not offered in live mode.
     */
    X402_RPC_URLS: jsonObject(byEvmNetwork(z.string().url("a JSON-RPC URL"))),
    /** The facilitator account that pays the gas of live settlements (0x + 64 hex digits). Never logged or shown. */
    X402_FACILITATOR_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "a private key: 0x and 64 hex digits")
      .optional(),
    /** A live network's token when it is not the public USDC (a local chain): CAIP-2 network -> { address, name, version, decimals }. */
    X402_ASSETS: jsonObject(
      byEvmNetwork(
        z.strictObject({
          address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an EVM address"),
          name: z.string().min(1),
          version: z.string().min(1),
          decimals: z.number().int().min(2).max(36),
        }),
      ),
    ),
    /** Blocks on top of a settlement's before it is captured. */
    X402_CONFIRMATIONS: z.coerce.number().int().min(1).max(64).default(1),
    /**
     * How long a live settlement waits for its confirmations before it answers `settlement_pending` (the
     * PaymentIntent stays processing and the tick captures it from the chain).
     */
    X402_CONFIRMATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Below this native balance (wei) the facilitator account is warned about in the log and on the dashboard (default 0.005 ETH). */
    X402_FACILITATOR_MIN_BALANCE_WEI: z.coerce.bigint().min(0n).default(5_000_000_000_000_000n),
    /**
     * How long a hosted paid resource answers again a payment it already took (the same x402 payload): a
     * lost answer is recovered, never paid twice (docs/x402.md "Going live").
     */
    PAID_REPLAY_WINDOW_SECONDS: z.coerce.number().int().min(0).default(86_400),
    /** Longest a rail call may take; must stay well under the 15 s transaction time-out. */
    RAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(8_000),
    /** Consecutive rail failures (per process; on the test rail per merchant and mode) that open the circuit breaker. */
    CIRCUIT_FAILURE_THRESHOLD: z.coerce.number().int().min(1).default(5),
    /** How long an open circuit fast-fails before letting one trial call through (half-open). */
    CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(1).default(30_000),
    /** Connections of each side pool (the test rail's own, and autonomous attempt records). */
    SIDE_POOL_MAX: z.coerce.number().int().min(1).max(50).default(4),
    /** Secret the wallet provider signs its inbound webhooks with (same t=,v1= scheme). Unset: all refused. */
    WALLET_WEBHOOK_SECRET: z.string().optional(),
    /** How long a CartMandate the AP2 merchant agent signs is valid (its JWT `exp` and `cart_expiry`; docs/a2a.md). */
    AP2_CART_MANDATE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    /**
     * How long a retired receipt signing key stays published at /.well-known/jwks.json (docs/receipts.md): the
     * receipts it signed verify for that long after a rotation. 400 days outlasts a card dispute window.
     */
    RECEIPT_KEY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
    /** 32-byte key (64 hex characters or base64) that encrypts stored webhook signing secrets. */
    SECRETS_ENCRYPTION_KEY: z.string().optional(),
    /**
     * Allow webhook endpoints (both modes) on loopback, private and link-local addresses. Unset: on only when
     * the effective BASE_URL is a loopback address (a local installation, the test suites).
     */
    WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["0", "1", "true", "false", ""]).optional(),
    /**
     * Allow paid resources (hosted, forwarded to `url`) on loopback, private and link-local addresses, at creation
     * and at every forward. Independent of WEBHOOK_ALLOW_PRIVATE_URLS; unset: on only for a loopback BASE_URL.
     */
    PAID_RESOURCE_ALLOW_PRIVATE_URLS: z.enum(["0", "1", "true", "false", ""]).optional(),
    /**
     * Foreign agent operators whose Web Bot Auth key directory (`Signature-Agent` naming their origin) is fetched
     * and trusted (docs/cards.md "Foreign agent operators"): comma-separated origins, or `*` for any. Unset: none.
     */
    AGENT_DIRECTORIES_TRUSTED: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const entries = (value ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
        if (entries.includes("*")) return "*" as const;
        return entries.map((entry) => {
          const url = URL.canParse(entry) ? new URL(entry) : null;
          if (!url || !/^https?:$/.test(url.protocol)) ctx.addIssue({ code: "custom", message: `${entry} is not an http(s) origin` });
          return url?.origin ?? entry;
        });
      }),
    /**
     * Allow foreign agent directories on loopback, private and link-local addresses (and `http:` origins).
     * Unset: on only for a loopback BASE_URL, as WEBHOOK_ALLOW_PRIVATE_URLS.
     */
    AGENT_DIRECTORY_ALLOW_PRIVATE_URLS: z.enum(["0", "1", "true", "false", ""]).optional(),
    /**
     * The least time between two fetches of one foreign agent directory (an unknown keyid, a short max-age), and how
     * long a failed fetch is remembered (nothing fetched meanwhile).
     */
    AGENT_DIRECTORY_REFETCH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    /** Agent signatures on payment requests must cover `content-digest` (RFC 9530), checked against the body. */
    AGENT_PAYMENTS_REQUIRE_CONTENT_DIGEST: flag,
    /**
     * Another origin (e.g. https://paid.example-content.net, a second host name of this deployment) that serves the
     * paid resources: their x402Url and mppUrl name it, and /x402/r/* and /mpp/r/* on any other host redirect there
     * (308), so paid content never shares the dashboard's origin. Unset: BASE_URL serves them.
     */
    PAID_CONTENT_ORIGIN: z
      .url()
      .refine((value) => /^https?:\/\/[^/]+\/?$/.test(value), "must be an origin (scheme, host and port only)")
      .transform((value) => value.replace(/\/$/, ""))
      .optional(),
    /** Seconds to wait before each retry; the default is about three days in all. */
    WEBHOOK_RETRY_SCHEDULE: WebhookSchedule.default([60, 300, 1800, 3600, 7200, 14400, 28800, 57600, 86400, 57600]),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /** Most attempts one claim takes, and how many are in flight at once per process (docs/webhooks.md). */
    WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(200),
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(2000).default(256),
    /** An endpoint failing without a single success for this long is disabled. */
    WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(120),
    /** In-flight attempts per endpoint, and per merchant (all its endpoints, both modes), across the sender. */
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(32),
    WEBHOOK_MERCHANT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
    /** Webhook endpoints a merchant may have per mode (Stripe: 16). */
    WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).max(1000).default(16),
    /** Longest a cron tick spends claiming new webhook attempts (attempts in flight then still finish). */
    WEBHOOK_TICK_BUDGET_MS: z.coerce.number().int().min(0).default(2_000),
    /** The long-running server's own sender (wake on commit); "0" leaves webhooks to the cron tick alone. */
    WEBHOOK_WAKE_ON_COMMIT: z.enum(["0", "1", "true", "false", ""]).optional(),
    /** Set by server.mjs: this process is a long-running server (it listens for commits and runs the sender). */
    APS_LONG_RUNNING: flag,
    /** Event stream (GET /v1/events/stream): keep-alive comment period; poll period when nothing listens. */
    EVENT_STREAM_KEEPALIVE_MS: z.coerce.number().int().min(100).max(15_000).default(10_000),
    EVENT_STREAM_POLL_MS: z.coerce.number().int().min(50).default(1_000),
    /** A stream ends cleanly after this many seconds (0: never) and its client resumes with Last-Event-ID. */
    EVENT_STREAM_MAX_SECONDS: z.coerce.number().int().min(0).default(3600),
    /** Open streams per API key and per merchant (both modes), counted across every process (a 429 beyond). */
    EVENT_STREAM_MAX_PER_KEY: z.coerce.number().int().min(1).default(10),
    EVENT_STREAM_MAX_PER_MERCHANT: z.coerce.number().int().min(1).default(50),
    /** Bytes a stream may have queued for a client that does not read; beyond, the stream is dropped (it resumes). */
    EVENT_STREAM_MAX_QUEUE_BYTES: z.coerce.number().int().min(16_384).default(1_048_576),
    /** How long an open stream's slot outlives its process's last renewal (a crashed process frees its slots). */
    EVENT_STREAM_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
    /**
     * Signs and encrypts dashboard sessions (next-auth). Unset: derived from SECRETS_ENCRYPTION_KEY, else
     * (outside production) a random one kept in .data/auth-secret; `npm start` makes and keeps one there.
     */
    AUTH_SECRET: z.string().min(16).optional(),
    /** The dashboard's public address for next-auth. Unset: the address each request came to (AUTH_TRUST_HOST). */
    NEXTAUTH_URL: z.string().url().optional(),
    /** Trust the request's Host / X-Forwarded-Host as the sign-in origin. Default: on unless NEXTAUTH_URL is set. */
    AUTH_TRUST_HOST: z.enum(["0", "1", "true", "false"]).optional(),
    /** Sign-in attempts per IP and email address per RATE_LIMIT_WINDOW_MS. */
    LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(5),
    /** Sign-in attempts per client IP (IPv6: per /64), whatever the emails, per RATE_LIMIT_WINDOW_MS. */
    LOGIN_IP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(20),
    /**
     * Sign-in attempts on one email, from any IP, that no success has cleared, before back-off: from then
     * on each attempt blocks the email for 1 s, then 2, 4, ... up to LOGIN_BACKOFF_MAX_SECONDS.
     */
    LOGIN_ACCOUNT_FAILURES_MAX: z.coerce.number().int().min(1).default(10),
    LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
    /**
     * Wrong two-factor codes in a row for one user (sign-in, turning it off) before back-off: from then on
     * each wrong code blocks the user's codes for 30 s, then 60, 120, ... up to TWO_FACTOR_BACKOFF_MAX_SECONDS.
     */
    TWO_FACTOR_FAILURES_MAX: z.coerce.number().int().min(1).default(5),
    TWO_FACTOR_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(3600),
    /**
     * scrypt's cost N for new password hashes (a power of two, 2^14 to 2^20; r=8, p=1): 2^17 (128 MiB, about 1 s of CPU
     * here) is current guidance and stays the production value. The test servers lower it to 2^14 (16 MiB), the floor:
     * the suites sign up and in hundreds of times. Stored hashes carry their own N, so both verify under either.
     */
    PASSWORD_SCRYPT_N: z.coerce
      .number()
      .int()
      .min(2 ** 14)
      .max(2 ** 20)
      .refine((n) => (n & (n - 1)) === 0, "must be a power of two")
      .default(2 ** 17),
    /** Password hashes (scrypt, 128 MiB each) computed at once per process, and attempts that may wait for one. */
    PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
    /** Sign-ups per client IP per RATE_LIMIT_WINDOW_MS. */
    SIGNUP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    /** Requests per client IP to the account endpoints behind emailed links (forgot, reset, confirm), and "forgot password" per email, per RATE_LIMIT_WINDOW_MS. */
    PASSWORD_RESET_IP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    PASSWORD_RESET_EMAIL_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(3),
    /** "1": the dev mail viewer (/dev/mail) is served even when NODE_ENV=production (the e2e and test servers). Never in a real deployment. */
    DEV_MAIL_VIEWER: z.enum(["0", "1"]).optional(),
    /**
     * Where mail goes out (lib/mail/sender.ts): smtp://user:password@host:587 (STARTTLS when offered) or
     * smtps://user:password@host:465 (TLS from the start); percent-encode special characters. Unset: nothing
     * is sent, the outbox rows stay the record (and a production start warns).
     */
    SMTP_URL: z
      .string()
      .optional()
      .transform((value) => value?.trim() || undefined)
      .refine((value) => value === undefined || /^smtps?:\/\/[^/?#]+/i.test(value), "smtp://... or smtps://..."),
    /** The From of every mail, an address or `Name <address>`. Unset: `Agent Payments Service <no-reply@BASE_URL's host>`. */
    MAIL_FROM: z
      .string()
      .max(320)
      .optional()
      .transform((value) => value?.trim() || undefined)
      .refine(
        (value) => value === undefined || /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(value),
        "an address or Name <address>",
      ),
    /** Attempts at one mail before it is given up (temporary failures: SMTP 4xx, connection errors, time-outs). */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
    /** Seconds before the first retry; each further retry waits twice as long, up to MAIL_RETRY_MAX_SECONDS. */
    MAIL_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).default(60),
    MAIL_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Longest one SMTP delivery (connect, greeting, message) may take before it counts as a temporary failure. */
    MAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    /** Mails in flight at once per process (the SMTP connections the sender keeps open). */
    MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
    /** Active (unrevoked) API keys a merchant may hold per mode; each key has its own rate-limit bucket. */
    API_KEYS_MAX_ACTIVE: z.coerce.number().int().min(1).max(1000).default(20),
    /** A prepaid meter reservation neither committed nor released within this many seconds is released by the tick. */
    METER_RESERVATION_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /**
     * /mcp tool calls one principal (an API key, an OAuth grant) may have running at once, over all processes
     * (lib/mcp/call-slots.ts). 10: an agent runs its calls one after another or a few in parallel, and ten running
     * calls already hold as many connections as one process's default pool (DB_POOL_MAX).
     */
    MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(1000).default(10),
    /** OAuth (docs/oauth-and-mcp.md): lifetime of an authorization code, an access token and a refresh token. */
    OAUTH_CODE_TTL_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
    /** Dynamic client registrations (POST /oauth/register) per client IP per RATE_LIMIT_WINDOW_MS, a bucket of its own. */
    OAUTH_REGISTER_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
    /**
     * Client ID metadata documents (docs/oauth-and-mcp.md): allow their HTTPS URLs on loopback, private and link-local
     * addresses. Unset: on only for a loopback BASE_URL, as WEBHOOK_ALLOW_PRIVATE_URLS.
     */
    OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS: z.enum(["0", "1", "true", "false", ""]).optional(),
    /** A registered OAuth client nobody authorized within this many hours of its registration is deleted by the tick. */
    OAUTH_UNUSED_CLIENT_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
    OAUTH_REFRESH_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 86_400),
  })
  .superRefine((settings, ctx) => {
    // Live x402 settles with the facilitator's key: a network without it could take payments it cannot settle.
    if (Object.keys(settings.X402_RPC_URLS).length > 0 && !settings.X402_FACILITATOR_PRIVATE_KEY)
      ctx.addIssue({ code: "custom", path: ["X402_FACILITATOR_PRIVATE_KEY"], message: "required when X402_RPC_URLS names a network" });
  });

export type Env = Omit<
  z.infer<typeof EnvSchema>,
  | "AUTH_TRUST_HOST"
  | "WEBHOOK_ALLOW_PRIVATE_URLS"
  | "PAID_RESOURCE_ALLOW_PRIVATE_URLS"
  | "AGENT_DIRECTORY_ALLOW_PRIVATE_URLS"
  | "OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS"
> & {
  BASE_URL: string;
  AUTH_TRUST_HOST: boolean;
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean;
  PAID_RESOURCE_ALLOW_PRIVATE_URLS: boolean;
  AGENT_DIRECTORY_ALLOW_PRIVATE_URLS: boolean;
  OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS: boolean;
};

/** Whether a URL names this machine: localhost (and *.localhost), 127.0.0.0/8, ::1 (IPv4-mapped too). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host); // IPv4-mapped IPv6 as the IPv4 address
  return address.range() === "loopback";
}

/**
 * WEBHOOK_ALLOW_PRIVATE_URLS as set, else on only for a local installation: BASE_URL set to a loopback
 * address (`npm start` and the test suites set it), or unset outside production (`next dev`). A deployment
 * sets BASE_URL to its public address; a production server that forgot BASE_URL fails closed, keeping
 * webhook endpoints of either mode off the host's own network.
 */
export function allowPrivateWebhookUrls(setting: string | undefined, baseUrl: string | undefined, nodeEnv = "production"): boolean {
  if (setting === "1" || setting === "true") return true;
  if (setting === "0" || setting === "false") return false;
  return baseUrl === undefined ? nodeEnv !== "production" : isLoopbackUrl(baseUrl);
}

function parseEnv(): Env {
  const result = EnvSchema.safeParse(process.env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid settings:\n  ${problems.join("\n  ")}`);
  }
  const parsed = result.data;
  const trustHost = parsed.AUTH_TRUST_HOST ? ["1", "true"].includes(parsed.AUTH_TRUST_HOST) : !parsed.NEXTAUTH_URL;
  // next-auth reads this one from process.env itself; this is where it learns the parsed default.
  if (trustHost) process.env.AUTH_TRUST_HOST = "1";
  else delete process.env.AUTH_TRUST_HOST;
  const baseUrl = (parsed.BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, "");
  return {
    ...parsed,
    AUTH_TRUST_HOST: trustHost,
    BASE_URL: baseUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivateWebhookUrls(parsed.WEBHOOK_ALLOW_PRIVATE_URLS, parsed.BASE_URL, parsed.NODE_ENV),
    // The same rule, its own switch: a paid resource's forward is no webhook.
    PAID_RESOURCE_ALLOW_PRIVATE_URLS: allowPrivateWebhookUrls(parsed.PAID_RESOURCE_ALLOW_PRIVATE_URLS, parsed.BASE_URL, parsed.NODE_ENV),
    AGENT_DIRECTORY_ALLOW_PRIVATE_URLS: allowPrivateWebhookUrls(
      parsed.AGENT_DIRECTORY_ALLOW_PRIVATE_URLS,
      parsed.BASE_URL,
      parsed.NODE_ENV,
    ),
    OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS: allowPrivateWebhookUrls(
      parsed.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_URLS,
      parsed.BASE_URL,
      parsed.NODE_ENV,
    ),
  };
}

export const env: Env = parseEnv();

export function requireDatabaseUrl(): string {
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  return env.DATABASE_URL;
}
