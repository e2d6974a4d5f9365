// Runs the Prisma CLI (offline JS schema engine, see prisma.config.ts) as a child process.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PRISMA_BIN = path.join(ROOT, "node_modules", ".bin", "prisma");

// `generate` reads the schema's `url = env("DATABASE_URL")` but never connects; any well-formed URL will do.
const PLACEHOLDER_URL = "postgresql://placeholder@127.0.0.1:5432/placeholder";

function runPrisma(args: string[], databaseUrl: string): void {
  const result = spawnSync(PRISMA_BIN, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`prisma ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/** Generates the client when it is missing or older than the schema (a pulled schema change must not leave a stale client). */
export function generatePrismaClientIfMissing(): void {
  const client = path.join(ROOT, "lib", "generated", "prisma", "client.ts");
  const schema = path.join(ROOT, "prisma", "schema.prisma");
  if (existsSync(client) && statSync(client).mtimeMs >= statSync(schema).mtimeMs) return;
  runPrisma(["generate"], PLACEHOLDER_URL);
}

export function migrateDeploy(databaseUrl: string): void {
  runPrisma(["migrate", "deploy"], databaseUrl);
}

export { ROOT };
