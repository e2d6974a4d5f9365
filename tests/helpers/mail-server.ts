// A test server that sends its mail over SMTP to a real SMTP server of the test (tests/helpers/smtp.ts),
// on a database of its own: every server with SMTP_URL sends any due mail of its database, so two test
// files' sending servers on one database would take each other's mails (and send them to the wrong SMTP
// server). Use it as
//   const mail = await startMailTestServer("invitations");
//   ... await mail.smtp.waitForMail({ to, kind: "invitation" }) ... (links, text, html, headers)
//   await mail.stop();
// `mail.url` is the server's address (pass it as `base` to the HTTP helpers).
import type { ServerProcess } from "../../scripts/lib/server-process";
import { ownDatabase, type OwnDatabase } from "./own-database";
import { startTestServer } from "./server";
import { startTestSmtp, type TestSmtp, type TestSmtpOptions } from "./smtp";

export const TEST_MAIL_FROM = "Agent Payments Service <no-reply@mail.example.test>";

/** Settings of a server that sends to `smtp`: quick retries, no per-IP limits in the way of a test. */
export function mailSettings(smtp: Pick<TestSmtp, "url">): Record<string, string> {
  return {
    SMTP_URL: smtp.url,
    MAIL_FROM: TEST_MAIL_FROM,
    MAIL_RETRY_BASE_SECONDS: "1",
    MAIL_RETRY_MAX_SECONDS: "2",
    MAIL_TIMEOUT_MS: "5000",
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
    PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
  };
}

export interface MailTestServer {
  url: string;
  smtp: TestSmtp;
  server: ServerProcess;
  database: OwnDatabase;
  /** Another server process on the same database (sending to the same SMTP server unless `env` says otherwise). */
  startAnother: (env?: Record<string, string>) => Promise<ServerProcess>;
  stop: () => Promise<void>;
}

/** `name`: a short unique suffix for the database (the test file's). */
export async function startMailTestServer(
  name: string,
  env: Record<string, string> = {},
  smtpOptions: TestSmtpOptions = {},
): Promise<MailTestServer> {
  const smtp = await startTestSmtp(smtpOptions);
  const database = await ownDatabase(`mail_${name}`);
  const servers: ServerProcess[] = [];
  const start = async (extra: Record<string, string> = {}) => {
    const server = await startTestServer({ DATABASE_URL: database.url, ...mailSettings(smtp), ...env, ...extra });
    servers.push(server);
    return server;
  };
  const server = await start();
  return {
    url: server.url,
    smtp,
    server,
    database,
    startAnother: start,
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await smtp.close();
      await database.drop();
    },
  };
}
