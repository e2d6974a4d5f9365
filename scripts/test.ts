// npm test: the whole suite (types, lint, format, unit, database, HTTP, e2e) on a throwaway database that is created here and
// dropped at the end, on DATABASE_URL's server when set, else on an embedded PostgreSQL under .data/.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { buildIfNeeded } from "./lib/build";
import { runChild } from "./lib/child";
import { freePort } from "./lib/ports";
import { createDatabaseFromTemplate, createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from "./lib/embedded-postgres";
import { applyPendingMigrations, generatePrismaClientIfMissing, ROOT } from "./lib/prisma-cli";

const testDatabase = `aps_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
const isolatedDatabase = `${testDatabase}_iso`;
const e2eDatabase = `${testDatabase}_e2e`;

async function openServer(): Promise<{ adminUrl: (db: string) => string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const base = new URL(process.env.DATABASE_URL);
    return {
      adminUrl: (db) => Object.assign(new URL(base.href), { pathname: `/${db}` }).href,
      stop: async () => {},
    };
  }
  console.log("Database: embedded PostgreSQL under .data/pg-test (set DATABASE_URL to use another server)");
  return startEmbeddedPostgres("pg-test", Number(process.env.EMBEDDED_TEST_PG_PORT ?? 54330), { throwaway: true });
}

async function run(label: string, command: string, args: string[], env: Record<string, string>): Promise<boolean> {
  console.log(`\n=== ${label} ===`);
  const { code } = await runChild(path.join(ROOT, "node_modules", ".bin", command), args, { env: { ...process.env, ...env } });
  return code === 0;
}

const server = await openServer();
let passed = false;
try {
  const adminUrl = server.adminUrl("postgres");
  await createDatabaseIfMissing(adminUrl, testDatabase);
  const databaseUrl = server.adminUrl(testDatabase);
  console.log(`Test database: ${testDatabase}`);
  await generatePrismaClientIfMissing();
  await applyPendingMigrations(databaseUrl);
  // A second, migrated copy for tests whose background work (the tick) must not be shared with others.
  await createDatabaseFromTemplate(adminUrl, isolatedDatabase, testDatabase);
  // The browser suite's server on a copy of its own: its SECRETS_ENCRYPTION_KEY (playwright.config.ts) is not the HTTP
  // tests' servers', so on their database it could not open what they sealed (the service's signing key, secrets).
  await createDatabaseFromTemplate(adminUrl, e2eDatabase, testDatabase);
  await buildIfNeeded();

  const env = {
    DATABASE_URL: databaseUrl,
    ISOLATED_DATABASE_URL: server.adminUrl(isolatedDatabase),
    NEXT_TELEMETRY_DISABLED: "1",
    E2E_PORT: process.env.E2E_PORT ?? String(await freePort()),
  };
  const extraArgs = process.argv.slice(2);
  const typesOk = await run("tsc: type check", "tsc", ["--noEmit"], env);
  // Lint and format checks cover the whole tree, so like Playwright they are skipped when files are named.
  const lintOk = extraArgs.length ? true : await run("eslint: lint", "eslint", [".", "--max-warnings=0"], env);
  const formatOk = extraArgs.length ? true : await run("prettier: format check", "prettier", ["--check", "."], env);
  // Copied code in app/, lib/, components/ and scripts/ (.jscpd.json; docs/architecture.md, "Duplicate code").
  const copiesOk = extraArgs.length ? true : await run("jscpd: duplicate code", "jscpd", [], env);
  // run() starts binaries of node_modules/.bin: tsx runs the TypeScript script (there is no .bin/node).
  const depsOk = extraArgs.length ? true : await run("dependency-cruiser: import layers", "tsx", ["scripts/deps.ts"], env);
  const unitAndServer = await run("vitest: unit, database and HTTP tests", "vitest", ["run", ...extraArgs], env);
  const e2eEnv = { ...env, DATABASE_URL: server.adminUrl(e2eDatabase) };
  const e2e = extraArgs.length ? true : await run("playwright: browser and end-to-end tests", "playwright", ["test"], e2eEnv);
  passed = typesOk && lintOk && formatOk && copiesOk && depsOk && unitAndServer && e2e;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
} finally {
  for (const database of [testDatabase, isolatedDatabase, e2eDatabase]) {
    await dropDatabase(server.adminUrl("postgres"), database).catch((err) => console.error("could not drop a test database:", err.message));
  }
  await server.stop();
}
console.log(passed ? "\nAll test layers passed." : "\nSome tests failed.");
process.exit(passed ? 0 : 1);
