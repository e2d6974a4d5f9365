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
const templateDatabase = `${testDatabase}_template`;

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

type Check = [label: string, command: string, args: string[]];

/**
 * The static checks, all at once (each is single-threaded: together they take about half the time on two cores),
 * their output collected and printed one check after another.
 */
async function runStaticChecks(checks: Check[], env: Record<string, string>): Promise<boolean> {
  const results = await Promise.all(
    checks.map(([, command, args]) =>
      runChild(path.join(ROOT, "node_modules", ".bin", command), args, { env: { ...process.env, ...env }, capture: true }),
    ),
  );
  checks.forEach(([label], i) => {
    console.log(`\n=== ${label} ===`);
    process.stdout.write(results[i].output);
  });
  return results.every((result) => result.code === 0);
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
  // A migrated copy nobody connects to: the template of the test files' databases of their own (tests/helpers/own-database.ts),
  // a copy in a fraction of a second where migrating one takes seconds of CPU.
  await createDatabaseFromTemplate(adminUrl, templateDatabase, testDatabase);
  await buildIfNeeded();

  const env = {
    DATABASE_URL: databaseUrl,
    ISOLATED_DATABASE_URL: server.adminUrl(isolatedDatabase),
    TEMPLATE_DATABASE_URL: server.adminUrl(templateDatabase),
    NEXT_TELEMETRY_DISABLED: "1",
    E2E_PORT: process.env.E2E_PORT ?? String(await freePort()),
  };
  const extraArgs = process.argv.slice(2);
  // Lint and format checks cover the whole tree, so like Playwright they are skipped when files are named.
  const treeChecks: Check[] = [
    ["eslint: lint", "eslint", [".", "--max-warnings=0"]],
    ["prettier: format check", "prettier", ["--check", "."]],
    // Copied code in app/, lib/, components/ and scripts/ (.jscpd.json; docs/architecture.md, "Duplicate code").
    ["jscpd: duplicate code", "jscpd", []],
    // Binaries of node_modules/.bin: tsx runs the TypeScript script (there is no .bin/node).
    ["dependency-cruiser: import layers", "tsx", ["scripts/deps.ts"]],
  ];
  const staticOk = await runStaticChecks([["tsc: type check", "tsc", ["--noEmit"]], ...(extraArgs.length ? [] : treeChecks)], env);
  const unitAndServer = await run("vitest: unit, database and HTTP tests", "vitest", ["run", ...extraArgs], env);
  const e2eEnv = { ...env, DATABASE_URL: server.adminUrl(e2eDatabase) };
  const e2e = extraArgs.length ? true : await run("playwright: browser and end-to-end tests", "playwright", ["test"], e2eEnv);
  passed = staticOk && unitAndServer && e2e;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
} finally {
  for (const database of [testDatabase, isolatedDatabase, e2eDatabase, templateDatabase]) {
    await dropDatabase(server.adminUrl("postgres"), database).catch((err) => console.error("could not drop a test database:", err.message));
  }
  await server.stop();
}
console.log(passed ? "\nAll test layers passed." : "\nSome tests failed.");
process.exit(passed ? 0 : 1);
