// npm start: database (embedded unless DATABASE_URL), migrations, demo seed, build if needed, serve on
// PORT, and trigger the cron tick every second. Ctrl-C stops everything, the embedded database too.
import { randomBytes } from "node:crypto";
import { buildIfNeeded } from "./lib/build";
import { openServiceDatabase } from "./lib/database";
import { generatePrismaClientIfMissing, migrateDeploy } from "./lib/prisma-cli";
import { startServerProcess, type ServerProcess } from "./lib/server-process";
import { seedDemoMerchant } from "./lib/seed";
import { persistentLocalSecret } from "./lib/local-secret";
import { startTicker } from "./lib/ticker";

const port = Number(process.env.PORT ?? 3000);
const cronSecret = process.env.CRON_SECRET ?? randomBytes(24).toString("hex");

const database = await openServiceDatabase();
let server: ServerProcess;
try {
  console.log(database.embedded ? `Database: embedded PostgreSQL (${database.url.replace(/:[^:@]*@/, ":***@")})` : "Database: DATABASE_URL");
  generatePrismaClientIfMissing();
  migrateDeploy(database.url);
  console.log("Migrations applied.");
  await seedDemoMerchant(database.url);
  buildIfNeeded();
  const secretsKey = process.env.SECRETS_ENCRYPTION_KEY ?? persistentLocalSecret("secrets-encryption-key");
  const authSecret = process.env.AUTH_SECRET ?? persistentLocalSecret("auth-secret");
  server = await startServerProcess(port, { DATABASE_URL: database.url, CRON_SECRET: cronSecret, SECRETS_ENCRYPTION_KEY: secretsKey, AUTH_SECRET: authSecret }, true);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await database.stop();
  process.exit(1);
}
console.log(`Ready: http://localhost:${port}  (health: /health, readiness: /ready)`);

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
