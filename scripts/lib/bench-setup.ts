// What every benchmark needs: a fresh database on DATABASE_URL's server (else the embedded test
// PostgreSQL), migrated; a production build; servers started against it; everything removed after.
import { randomBytes } from "node:crypto";
import { buildIfNeeded } from "./build";
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { applyPendingMigrations, generatePrismaClientIfMissing } from "./prisma-cli";

export interface BenchDatabase {
  url: string;
  /** Another database on the same server, empty (for another build's own migrations); cleanup drops it too. */
  createEmpty: () => Promise<string>;
  cleanup: () => Promise<void>;
}

export async function freshBenchDatabase(): Promise<BenchDatabase> {
  const admin = process.env.DATABASE_URL
    ? (() => {
        const base = new URL(process.env.DATABASE_URL!);
        return { adminUrl: (db: string) => Object.assign(new URL(base.href), { pathname: `/${db}` }).href, stop: async () => {} };
      })()
    : await startEmbeddedPostgres("pg-test", Number(process.env.EMBEDDED_TEST_PG_PORT ?? 54330));
  const databases: string[] = [];
  const createEmpty = async () => {
    const database = `aps_bench_${Date.now()}_${randomBytes(3).toString("hex")}`;
    databases.push(database);
    await createDatabaseIfMissing(admin.adminUrl("postgres"), database);
    return admin.adminUrl(database);
  };
  const url = await createEmpty();
  await generatePrismaClientIfMissing();
  await applyPendingMigrations(url);
  await buildIfNeeded();
  return {
    url,
    createEmpty,
    cleanup: async () => {
      for (const database of databases) await dropDatabase(admin.adminUrl("postgres"), database).catch(() => {});
      await admin.stop();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
