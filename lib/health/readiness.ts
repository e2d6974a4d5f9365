// Readiness: the database answers and every committed migration has been applied. /ready is public, so
// a failing database is reported as the word "failing"; its message (host, database and role names) goes
// to the server log only.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { getDb } from "../db";

export interface Readiness {
  ready: boolean;
  checks: { database: "ok" | "failing"; migrations: "ok" | "unknown" | string };
}

async function committedMigrations(): Promise<string[]> {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

export async function checkReadiness(): Promise<Readiness> {
  let applied: string[];
  try {
    const rows = await getDb().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = rows.map((row) => row.migration_name);
  } catch (err) {
    console.error("readiness: the database check failed:", err instanceof Error ? err.message.trim() : err);
    return { ready: false, checks: { database: "failing", migrations: "unknown" } };
  }
  const pending = (await committedMigrations()).filter((name) => !applied.includes(name));
  const migrations = pending.length === 0 ? "ok" : `pending: ${pending.join(", ")}`;
  return { ready: pending.length === 0, checks: { database: "ok", migrations } };
}
