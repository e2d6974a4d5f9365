import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium (never `playwright install`): an explicit setting, then /usr/bin/chromium, then Playwright's own.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const port = Number(process.env.E2E_PORT ?? 3456);

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
  webServer: {
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
      PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
      // Sign-up and password reset go through the dev mail viewer (/dev/mail): mails are only in email_outbox.
      DEV_MAIL_VIEWER: "1",
      // Webhook retries within the test's patience (seconds before each retry).
      WEBHOOK_RETRY_SCHEDULE: "1,1,1",
    },
  },
});
