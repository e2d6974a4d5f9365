import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium (never `playwright install`): an explicit setting, then /usr/bin/chromium, then Playwright's own.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const port = Number(process.env.E2E_PORT ?? 3456);
// The SMTP sink the e2e server sends its mail to (e2e/support/smtp-sink.ts), and its HTTP side the specs
// read (e2e/support/mail.ts); workers inherit this process's environment.
const smtpSinkPort = port + 1;
const smtpSinkHttpPort = port + 2;
process.env.E2E_SMTP_SINK_URL = `http://127.0.0.1:${smtpSinkHttpPort}`;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  workers: 1,
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
      command: "node server.mjs",
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
        // Every dashboard spec signs a fresh merchant up from 127.0.0.1.
        SIGNUP_RATE_LIMIT_MAX: "1000",
        LOGIN_IP_RATE_LIMIT_MAX: "1000",
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
