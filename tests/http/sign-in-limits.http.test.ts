// Sign-in limits beyond (IP, email) (issue 14, item 5): per client IP across emails (IPv6 by /64), per
// account across IPs with growing back-off, a cap on concurrent password hashing (503 BUSY at once), and
// scrypt at N=2^17 with old hashes rehashed on sign-in. Each server here sits behind one trusted proxy, so
// each test picks its own client addresses.
import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { signUpOverHttp, uniqueEmail } from "../helpers/dashboard";
import { startTestServer } from "../helpers/server";

const randomHex = () => Math.floor(Math.random() * 0xffff).toString(16);
const randomV4 = () => `198.51.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

/** One sign-in through next-auth's JSON callback, as the login page's script makes it, from a chosen address. */
async function signInFrom(base: string, from: string, email: string, password: string) {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const startedAt = performance.now();
  const res = await fetch(`${base}/api/auth/callback/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: base, "X-Forwarded-For": from },
    body: new URLSearchParams({ email, password, csrfToken, json: "true" }),
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const ms = performance.now() - startedAt;
  const error = body.url ? new URL(body.url, base).searchParams.get("error") : null;
  const signedIn = res.headers.getSetCookie().some((line) => line.startsWith("next-auth.session-token="));
  return { status: res.status, error, signedIn, retryAfter: res.headers.get("retry-after"), ms };
}

describe("per IP across emails, and per account across IPs", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({
      TRUSTED_PROXY_HOPS: "1",
      RATE_LIMIT_WINDOW_MS: "3600000",
      LOGIN_IP_RATE_LIMIT_MAX: "3",
      LOGIN_ACCOUNT_FAILURES_MAX: "3",
      SIGNUP_RATE_LIMIT_MAX: "1000",
    });
  });
  afterAll(() => server?.stop());

  it(
    "one IPv6 /64 spraying passwords over many emails is refused after LOGIN_IP_RATE_LIMIT_MAX attempts (429); another /64 is not",
    { timeout: 240_000 },
    async () => {
      const user = await signUpOverHttp({}, server.url);
      const net = `2001:db8:${randomHex()}:${randomHex()}`;
      for (let i = 0; i < 3; i++)
        expect((await signInFrom(server.url, `${net}::${i + 1}`, uniqueEmail(), "wrong-password")).error).toBe("CredentialsSignin");
      const refused = await signInFrom(server.url, `${net}:ffff::9`, user.email, user.password);
      expect(refused).toMatchObject({ status: 429, error: "RATE_LIMITED", signedIn: false });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(await signInFrom(server.url, `2001:db8:${randomHex()}:${randomHex()}::1`, user.email, user.password)).toMatchObject({
        status: 200,
        signedIn: true,
      });
    },
  );

  it("a spraying IP, once its bucket refuses it, no longer counts against the victim's account", { timeout: 240_000 }, async () => {
    const victim = await signUpOverHttp({}, server.url);
    const net = `2001:db8:${randomHex()}:${randomHex()}`;
    // Two wrong passwords count (the threshold is 3); every further attempt from this /64 is refused by its bucket.
    for (let i = 0; i < 2; i++)
      expect((await signInFrom(server.url, `${net}::${i + 1}`, victim.email, "wrong-password")).error).toBe("CredentialsSignin");
    expect((await signInFrom(server.url, `${net}::3`, uniqueEmail(), "wrong-password")).error).toBe("CredentialsSignin");
    for (let i = 0; i < 8; i++) {
      expect(await signInFrom(server.url, `${net}::${i + 10}`, victim.email, "wrong-password")).toMatchObject({
        status: 429,
        error: "RATE_LIMITED",
      });
    }
    // Refused attempts moved nothing: the victim, elsewhere, signs in at once (no back-off).
    expect(await signInFrom(server.url, randomV4(), victim.email, victim.password)).toMatchObject({ status: 200, signedIn: true });
  });

  /**
   * Wrong passwords on one email from fresh addresses, waiting out each refusal, until `failures` of them
   * were checked; returns the Retry-After of every refusal met on the way.
   */
  async function guess(email: string, failures: number): Promise<number[]> {
    const waits: number[] = [];
    for (let checked = 0; checked < failures;) {
      const result = await signInFrom(server.url, randomV4(), email, "wrong-password");
      if (result.error === "CredentialsSignin") checked++;
      else {
        expect(result).toMatchObject({ status: 429, error: "RATE_LIMITED", signedIn: false });
        waits.push(Number(result.retryAfter));
        await new Promise((resolve) => setTimeout(resolve, Number(result.retryAfter) * 1000 + 100));
      }
    }
    return waits;
  }

  it("one account guessed from many IPs backs off (1 s, 2 s, 4 s, 8 s...), even for the right password; waiting it out and succeeding clears it", async () => {
    const user = await signUpOverHttp({}, server.url);
    // Threshold 3: the 3rd wrong password blocks the email 1 s, the 4th 2 s, the 5th 4 s, the 6th 8 s.
    const waits = await guess(user.email, 6);
    const blocked = await signInFrom(server.url, randomV4(), user.email, user.password);
    expect(blocked).toMatchObject({ status: 429, error: "RATE_LIMITED", signedIn: false });
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(3);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(8);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, Number(blocked.retryAfter) * 1000 + 100));
    expect(await signInFrom(server.url, randomV4(), user.email, user.password)).toMatchObject({ status: 200, signedIn: true });
    // The success cleared the count: two more mistakes cost no wait.
    expect(await guess(user.email, 2)).toEqual([]);
    expect(await signInFrom(server.url, randomV4(), user.email, user.password)).toMatchObject({ signedIn: true });
  }, 240_000);

  it("an unknown email backs off the same way (the answers do not tell which emails have accounts)", async () => {
    const email = uniqueEmail();
    await guess(email, 6);
    expect(await signInFrom(server.url, randomV4(), email, "wrong-password")).toMatchObject({ status: 429, error: "RATE_LIMITED" });
  }, 240_000);
});

describe("password hashing capacity", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({
      TRUSTED_PROXY_HOPS: "1",
      PASSWORD_HASH_CONCURRENCY: "1",
      PASSWORD_HASH_QUEUE: "1",
      // Production's cost: the burst must meet hashes that take their real time.
      PASSWORD_SCRYPT_N: String(2 ** 17),
      LOGIN_IP_RATE_LIMIT_MAX: "1000",
    });
    // The dummy hash for unknown emails is made once per process: make it before the burst.
    await signInFrom(server.url, randomV4(), uniqueEmail(), "warm-up-password");
  });
  afterAll(() => server?.stop());

  it("a burst beyond what may run or wait is answered 503 BUSY at once, not queued", { timeout: 240_000 }, async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => signInFrom(server.url, randomV4(), uniqueEmail(), "wrong-password")));
    const busy = results.filter((result) => result.error === "BUSY");
    const checked = results.filter((result) => result.error === "CredentialsSignin");
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeGreaterThanOrEqual(2);
    for (const result of busy) expect(result).toMatchObject({ status: 503, retryAfter: "1", signedIn: false });
    expect(Math.min(...busy.map((result) => result.ms))).toBeLessThan(Math.max(...checked.map((result) => result.ms)));
  });
});

describe("scrypt parameters", () => {
  // Production's N, 2^17, on a server of its own: startTestServer lowers it for every other server.
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({ PASSWORD_SCRYPT_N: String(2 ** 17) });
  });
  afterAll(() => server?.stop());

  it(
    "sign-up stores N=2^17, r=8, p=1; a hash with older parameters still verifies and is rehashed on sign-in",
    { timeout: 240_000 },
    async () => {
      const user = await signUpOverHttp({}, server.url);
      const stored = await getDb().user.findUniqueOrThrow({ where: { email: user.email } });
      expect(stored.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);

      const salt = randomBytes(16);
      const legacy = `scrypt$16384$8$1$${salt.toString("base64")}$${scryptSync(user.password, salt, 64, { N: 16384, r: 8, p: 1 }).toString("base64")}`;
      await getDb().user.update({ where: { id: stored.id }, data: { passwordHash: legacy } });
      const first = await signInFrom(user.base, "ignored", user.email, user.password);
      expect(first.signedIn).toBe(true);
      const after = await getDb().user.findUniqueOrThrow({ where: { id: stored.id } });
      expect(after.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(after.passwordHash).not.toBe(legacy);
      expect((await signInFrom(user.base, "ignored", user.email, user.password)).signedIn).toBe(true);
      expect((await signInFrom(user.base, "ignored", user.email, "wrong-password")).signedIn).toBe(false);
    },
  );
});
