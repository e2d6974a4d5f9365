// Rate-limit multipliers (issue 14, item 12): per-IP buckets key on an IPv6 address's /64, X-Forwarded-For
// is trusted only as server.mjs sets it (served by `next start`, a client's header picks no bucket), and
// a merchant holds at most API_KEYS_MAX_ACTIVE active API keys per mode.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { hashSecret } from "../../lib/merchants/api-key-secret";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { authCallback, dashboardCall, dashboardMerchant, uniqueEmail, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { freePort, startTestServer, TEST_CRON_SECRET, TEST_SECRETS_KEY } from "../helpers/server";

const BAD_KEY = `sk_test_${"0".repeat(32)}`;
/** A failed authentication costs a token of the caller's per-IP bucket: 401 while it lasts, then 429. */
const failedAuthFrom = async (base: string, forwardedFor?: string) =>
  (await call("GET", "/v1/orders", { base, key: BAD_KEY, headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} })).status;

const randomHex = () => Math.floor(Math.random() * 0xffff).toString(16);

describe("per-IP buckets behind one trusted proxy", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_MAX: "2",
      RATE_LIMIT_WINDOW_MS: "3600000",
      TRUSTED_PROXY_HOPS: "1",
      SIGNUP_RATE_LIMIT_MAX: "2",
    });
  });
  afterAll(() => server?.stop());

  it("addresses of one IPv6 /64 share one bucket; another /64 has its own", async () => {
    const net = `2001:db8:${randomHex()}:${randomHex()}`;
    const statuses = [
      await failedAuthFrom(server.url, `${net}::1`),
      await failedAuthFrom(server.url, `${net}:1:2:3:4`),
      await failedAuthFrom(server.url, `${net}:ffff:ffff:ffff:fffe`),
    ];
    expect(statuses).toEqual([401, 401, 429]);
    expect(await failedAuthFrom(server.url, `2001:db8:${randomHex()}:${randomHex()}::1`)).toBe(401);
  });

  it("an IPv4-mapped IPv6 address is its IPv4 address's bucket", async () => {
    const v4 = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    expect([
      await failedAuthFrom(server.url, v4),
      await failedAuthFrom(server.url, `::ffff:${v4}`),
      await failedAuthFrom(server.url, v4),
    ]).toEqual([401, 401, 429]);
  });

  it("sign-ups from one /64 share the sign-up bucket", async () => {
    const net = `2001:db8:${randomHex()}:${randomHex()}`;
    const signUpFrom = async (from: string) =>
      (
        await authCallback("signup", { name: "v6", email: uniqueEmail(), password: "long-enough-password" }, server.url, {
          "X-Forwarded-For": from,
        })
      ).error;
    expect([await signUpFrom(`${net}::a`), await signUpFrom(`${net}::b`), await signUpFrom(`${net}::c`)]).toEqual([
      "CHECK_EMAIL",
      "CHECK_EMAIL",
      "RATE_LIMITED",
    ]);
  });
});

describe("served by `next start` (not server.mjs)", () => {
  let child: ChildProcess;
  let base = "";
  let log = "";
  beforeAll(async () => {
    const port = await freePort();
    const root = path.resolve(import.meta.dirname, "..", "..");
    child = spawn(
      process.execPath,
      [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
      {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: "production",
          NEXT_TELEMETRY_DISABLED: "1",
          DATABASE_URL: process.env.DATABASE_URL!,
          CRON_SECRET: TEST_CRON_SECRET,
          SECRETS_ENCRYPTION_KEY: TEST_SECRETS_KEY,
          BASE_URL: `http://127.0.0.1:${port}`,
          RATE_LIMIT_MAX: "3",
          RATE_LIMIT_WINDOW_MS: "3600000",
          TRUSTED_PROXY_HOPS: "0",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.on("data", (chunk) => (log += chunk));
    child.stderr?.on("data", (chunk) => (log += chunk));
    base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`next start exited:\n${log}`);
      if (Date.now() > deadline) throw new Error(`next start did not answer:\n${log}`);
      if (
        await fetch(`${base}/health`).then(
          (res) => res.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(() => {
    child?.kill("SIGTERM");
  });

  it("X-Forwarded-For is not trusted: a new value each time still meets the limit, and the log warns", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await failedAuthFrom(base, `192.0.2.${Math.floor(Math.random() * 250) + 1}`));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(log).toContain("not served by server.mjs");
  });
});

describe("active API keys per merchant and mode", () => {
  let m: DashboardMerchant;
  beforeAll(async () => {
    m = await dashboardMerchant("Many keys", { twoFactor: true });
  });

  const create = (mode: "test" | "live" = "test") =>
    dashboardCall(m.session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: m.csrfToken, mode });

  it("concurrent creations stop at 20 active test keys (sign-up's key and the helper's included); the 21st is 403 with the limit", async () => {
    const results = await Promise.all(Array.from({ length: 22 }, () => create()));
    const created = results.filter((res) => res.status === 201);
    const refused = results.filter((res) => res.status !== 201);
    expect(created.length).toBe(18);
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "api_key_limit", limit: 20 } });
      expect(res.body.error.message).toContain("20 active test API keys");
    }
  });

  it("live mode counts its own keys; revoking a test key makes room for exactly one more", async () => {
    expect((await create("live")).status).toBe(201);
    const key = await getDb().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(m.key) } });
    expect(
      (await dashboardCall(m.session, "POST", `/api/dashboard/api-keys/${key.id}/revoke`, { body: {}, csrfToken: m.csrfToken })).status,
    ).toBe(200);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(403);
  });
});
