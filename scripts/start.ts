// npm start: database (embedded unless DATABASE_URL), migrations, demo seed, build if needed, serve on
// PORT, and trigger the cron tick every second. Ctrl-C stops everything, the embedded database too.
// Every setting comes from the environment (BASE_URL included); only the ones a local install lacks
// are made up here (CRON_SECRET per start, the secrets kept under .data/).
import { randomBytes } from "node:crypto";
import { buildIfNeeded } from "./lib/build";
import { openServiceDatabase } from "./lib/database";
import { applyPendingMigrations, generatePrismaClientIfMissing } from "./lib/prisma-cli";
import { startServerProcess, type ServerProcess } from "./lib/server-process";
import { seedDemoMerchant } from "./lib/seed";
import { persistentLocalSecret } from "./lib/local-secret";
import { startTicker } from "./lib/ticker";

const port = Number(process.env.PORT ?? 3000);
const baseUrl = (process.env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
const cronSecret = process.env.CRON_SECRET ?? randomBytes(24).toString("hex");

const database = await openServiceDatabase();
let server: ServerProcess;
let serverStarting: Promise<ServerProcess> | undefined;
try {
  console.log(
    database.embedded ? `Database: embedded PostgreSQL (${database.url.replace(/:[^:@]*@/, ":***@")})` : "Database: DATABASE_URL",
  );
  // Independent steps run side by side: the migrations with the build, the server's boot with the seed.
  await generatePrismaClientIfMissing();
  const [pending] = await Promise.all([applyPendingMigrations(database.url), buildIfNeeded()]);
  console.log(pending ? `Migrations applied (${pending}).` : "Migrations: up to date.");
  const secretsKey = process.env.SECRETS_ENCRYPTION_KEY ?? persistentLocalSecret("secrets-encryption-key");
  const authSecret = process.env.AUTH_SECRET ?? persistentLocalSecret("auth-secret");
  serverStarting = startServerProcess(
    port,
    { DATABASE_URL: database.url, BASE_URL: baseUrl, CRON_SECRET: cronSecret, SECRETS_ENCRYPTION_KEY: secretsKey, AUTH_SECRET: authSecret },
    true,
  );
  serverStarting.catch(() => {}); // awaited below; a failure while the seed runs must not go unhandled meanwhile
  await seedDemoMerchant(database.url);
  server = await serverStarting;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await serverStarting?.then((started) => started.stop()).catch(() => {});
  await database.stop();
  process.exit(1);
}
console.log(`Ready: ${baseUrl}  (health: /health, readiness: /ready)`);

const stopTicker = startTicker(server.url, cronSecret);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  stopTicker();
  console.log("\nStopping...");
  await server.stop();
  await database.stop();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
server.child.on("exit", (code) => {
  if (!stopping) {
    console.error(`The server exited (${code}).`);
    void shutdown();
  }
});
