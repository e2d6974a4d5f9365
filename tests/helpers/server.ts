// Starts a real production server (server.mjs) on a free port against the test database.
import { freePort } from "../../scripts/lib/ports";
import { startServerProcess, type ServerProcess } from "../../scripts/lib/server-process";

export const TEST_CRON_SECRET = "test-cron-secret";
export const TEST_SECRETS_KEY = "11".repeat(32);

export { freePort } from "../../scripts/lib/ports";

/** Live x402 on Base Sepolia through a JSON-RPC URL nothing answers (port 9 refuses): live resources can exist, never be paid. */
export const UNREACHABLE_LIVE_CHAIN = {
  X402_RPC_URLS: JSON.stringify({ "eip155:84532": "http://127.0.0.1:9/rpc" }),
  X402_FACILITATOR_PRIVATE_KEY: `0x${"33".repeat(32)}`,
};

/** `port`: a port chosen beforehand (a setting names it); `nodeArgs`: e.g. an --import preload (tests/helpers/dns-stub.mjs). */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { port?: number; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  return startServerProcess(
    port,
    {
      // The very address the tests call (OAuth resource, Host/Origin and signed-authority checks compare with it).
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: process.env.DATABASE_URL!,
      CRON_SECRET: TEST_CRON_SECRET,
      FAULT_INJECTION: "1",
      SECRETS_ENCRYPTION_KEY: TEST_SECRETS_KEY,
      // Test servers send webhooks only when ticked (as a serverless host does), so that tests can look at
      // queued deliveries and own the timing; the wake-on-commit tests turn the background sender on.
      WEBHOOK_WAKE_ON_COMMIT: "0",
      // Sign-up confirms through the emailed link, read from the dev mail viewer (tests/helpers/dashboard.ts).
      DEV_MAIL_VIEWER: "1",
      // Every sign-up of every server confirms from 127.0.0.1, and all servers of a run share one bucket table:
      // the account endpoints' per-IP limit is tested on servers of their own, which set it (and their IPs).
      PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
      // Likewise every OAuth client registers from 127.0.0.1; the registration limit is tested on a server of its own.
      OAUTH_REGISTER_RATE_LIMIT_MAX: "1000",
      // Password hashes at scrypt's floor (2^14, an eighth of production's second of CPU each): the suite signs up and
      // in hundreds of times. The production N (2^17) is checked on a server of its own (sign-in-limits.http.test.ts).
      PASSWORD_SCRYPT_N: "16384",
      ...env,
    },
    false,
    options.nodeArgs,
  );
}

/** Resolves with the process's exit code once it has exited (at once if it already has). */
export function waitForExit(s: ServerProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null) return resolve(s.child.exitCode);
    s.child.once("exit", (code) => resolve(code));
  });
}
