// The Prisma CLI (offline JS schema engine, see prisma.config.ts), run as a child process only when
// there is work for it: generating a missing or stale client, applying migrations the database lacks.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { runChild } from "./child";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PRISMA_BIN = path.join(ROOT, "node_modules", ".bin", "prisma");
const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");

// `generate` reads the schema's `url = env("DATABASE_URL")` but never connects; any well-formed URL will do.
const PLACEHOLDER_URL = "postgresql://placeholder@127.0.0.1:5432/placeholder";

async function runPrisma(args: string[], databaseUrl: string): Promise<void> {
  const { code, output } = await runChild(PRISMA_BIN, args, {
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    capture: true,
  });
  if (code !== 0) throw new Error(`prisma ${args.join(" ")} failed:\n${output}`);
}

export async function generatePrismaClient(): Promise<void> {
  await runPrisma(["generate"], process.env.DATABASE_URL ?? PLACEHOLDER_URL);
}

/** Generates the client when it is missing or older than the schema (a pulled schema change must not leave a stale client). */
export async function generatePrismaClientIfMissing(): Promise<void> {
  const client = path.join(ROOT, "lib", "generated", "prisma", "client.ts");
  const schema = path.join(ROOT, "prisma", "schema.prisma");
  if (existsSync(client) && statSync(client).mtimeMs >= statSync(schema).mtimeMs) return;
  await generatePrismaClient();
}

/** The committed migrations, by folder name. */
function committedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR).filter((name) => existsSync(path.join(MIGRATIONS_DIR, name, "migration.sql")));
}

/** Names of the migrations the database has applied (finished, not rolled back); none when it has no history table. */
async function appliedMigrations(databaseUrl: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    return new Set(rows.map((row) => row.migration_name));
  } catch (err) {
    if ((err as { code?: string }).code === "42P01") return new Set(); // undefined_table: a new database
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * Applies the committed migrations the database lacks with `prisma migrate deploy`. An up-to-date
 * database costs one query instead of the CLI (about 10 s). Returns how many were pending.
 */
export async function applyPendingMigrations(databaseUrl: string): Promise<number> {
  const applied = await appliedMigrations(databaseUrl);
  const pending = committedMigrations().filter((name) => !applied.has(name)).length;
  if (pending > 0) await runPrisma(["migrate", "deploy"], databaseUrl);
  return pending;
}

export { ROOT };
