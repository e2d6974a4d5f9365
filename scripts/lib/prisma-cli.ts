// Runs the Prisma CLI (offline JS schema engine, see prisma.config.ts) as a child process.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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

export function generatePrismaClientIfMissing(): void {
  if (existsSync(path.join(ROOT, "lib", "generated", "prisma", "client.ts"))) return;
  runPrisma(["generate"], PLACEHOLDER_URL);
}

export function generatePrismaClient(): void {
  runPrisma(["generate"], PLACEHOLDER_URL);
}

export function migrateDeploy(databaseUrl: string): void {
  runPrisma(["migrate", "deploy"], databaseUrl);
}

export { ROOT };
