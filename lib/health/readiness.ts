// Readiness: the database answers and every committed migration has been applied. /ready is public, so
// a failing database is reported as the word "failing"; its message (host, database and role names) goes
// to the server log only (an outage's once: lib/db-availability.ts).
import { readdir } from "node:fs/promises";
import path from "node:path";
import { getDb } from "../db";
import { databaseState, logUnlessDatabaseDown } from "../db-availability";

export interface Readiness {
  ready: boolean;
  checks: { database: "ok" | "failing"; migrations: "ok" | "unknown" | string };
}

async function committedMigrations(): Promise<string[]> {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

const NOT_READY: Readiness = { ready: false, checks: { database: "failing", migrations: "unknown" } };

export async function checkReadiness(): Promise<Readiness> {
  // The database's breaker is open (lib/db-availability.ts): not ready, without a query; once it is due for a
  // trial, this check may be the trial that closes it.
  if (databaseState() === "open") return NOT_READY;
  let applied: string[];
  try {
    const rows = await getDb().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = rows.map((row) => row.migration_name);
  } catch (err) {
    logUnlessDatabaseDown("readiness: the database check failed:", err);
    return NOT_READY;
  }
  const pending = (await committedMigrations()).filter((name) => !applied.includes(name));
  const migrations = pending.length === 0 ? "ok" : `pending: ${pending.join(", ")}`;
  return { ready: pending.length === 0, checks: { database: "ok", migrations } };
}
