import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { serverNodeFlags } from "./scripts/lib/server-process";

// Debian's Chromium (never `playwright install`): an explicit setting, then /usr/bin/chromium, then Playwright's own.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const port = Number(process.env.E2E_PORT ?? 3456);
// The SMTP sink the e2e server sends its mail to (e2e/support/smtp-sink.ts), and its HTTP side the specs
// read (e2e/support/mail.ts); workers inherit this process's environment.
const smtpSinkPort = port + 1;
const smtpSinkHttpPort = port + 2;
process.env.E2E_SMTP_SINK_URL = `http://127.0.0.1:${smtpSinkHttpPort}`;

// Specs that run the server's background work themselves (the cron tick: webhooks, disputes, meters) or watch a
// delivery wait in its queue: another spec's tick would send what they watch, so they run after the rest, one at a time.
const SERIAL_SPECS = /dashboard-(webhooks|events|disputes|meters)\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  // Two specs share the machine's two cores: a test takes up to twice its time alone, and a page (the API reference's
  // Swagger UI, first of all) may take more than expect's default 5 s to show.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Each spec signs up merchants of its own, so two workers share the one server (two cores).
  workers: 2,
  projects: [
    { name: "parallel", testIgnore: SERIAL_SPECS },
    { name: "serial", testMatch: SERIAL_SPECS, workers: 1, dependencies: ["parallel"] },
  ],
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: "node --import tsx e2e/support/smtp-sink.ts",
      url: `http://127.0.0.1:${smtpSinkHttpPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { SMTP_SINK_PORT: String(smtpSinkPort), SMTP_SINK_HTTP_PORT: String(smtpSinkHttpPort) },
    },
    {
      // With the production server's Node flags, as every other start of it (docs/operations.md).
      command: ["node", ...serverNodeFlags(), "server.mjs"].join(" "),
      url: `http://127.0.0.1:${port}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(port),
        NODE_ENV: "production",
        DATABASE_URL: process.env.DATABASE_URL ?? "",
        CRON_SECRET: "e2e-cron-secret",
        // The specs look at deliveries queued before the sender runs: webhooks go out on a tick only.
        WEBHOOK_WAKE_ON_COMMIT: "0",
        SECRETS_ENCRYPTION_KEY: "22".repeat(32),
        BASE_URL: `http://127.0.0.1:${port}`,
        // Every dashboard spec signs a fresh merchant up from 127.0.0.1, two specs at a time; the public routes'
        // per-IP bucket (120 a minute by default) is shared by both workers. No spec tests a limit.
        RATE_LIMIT_MAX: "1000",
        SIGNUP_RATE_LIMIT_MAX: "1000",
        LOGIN_IP_RATE_LIMIT_MAX: "1000",
        // Password hashes at scrypt's floor (2^14), as on the HTTP tests' servers (tests/helpers/server.ts): every
        // spec signs a merchant up and in, three hashes of about a second of CPU each at production's 2^17.
        PASSWORD_SCRYPT_N: "16384",
        // The two-factor spec signs one user in four times (password, codes) within a minute: on a fast run that
        // met the default 5 per (IP, email) per minute. The limit itself is tested in tests/http/sign-in-limits.http.test.ts.
        LOGIN_RATE_LIMIT_MAX: "50",
        PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
        // Mail goes out over SMTP to the sink (the server's background mail sender, woken by each commit that
        // queued a mail); the dev mail viewer (/dev/mail) lists every mail too.
        SMTP_URL: `smtp://127.0.0.1:${smtpSinkPort}`,
        MAIL_FROM: "Agent Payments Service <no-reply@e2e.example.test>",
        MAIL_RETRY_BASE_SECONDS: "1",
        MAIL_RETRY_MAX_SECONDS: "2",
        DEV_MAIL_VIEWER: "1",
        // One live x402 network (Base Sepolia's public USDC), so Settings offers payout addresses; nothing here
        // calls its chain (the address is unused), and the key is a throwaway one.
        X402_RPC_URLS: JSON.stringify({ "eip155:84532": "http://127.0.0.1:9/rpc" }),
        X402_FACILITATOR_PRIVATE_KEY: `0x${"33".repeat(32)}`,
        // Webhook retries within the test's patience (seconds before each retry).
        WEBHOOK_RETRY_SCHEDULE: "1,1,1",
      },
    },
  ],
});
