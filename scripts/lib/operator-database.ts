// The operator CLIs' database (merchant:create, key:create): the service's database (embedded unless DATABASE_URL),
// the Prisma client generated if missing, pending migrations applied (one query when up to date), then the work
// with lib/db open; everything closed after, whatever the work does.
import { openServiceDatabase } from "./database";
import { applyPendingMigrations, generatePrismaClientIfMissing } from "./prisma-cli";

export async function withOperatorDatabase(work: () => Promise<void>): Promise<void> {
  const database = await openServiceDatabase();
  process.env.DATABASE_URL = database.url;
  try {
    await generatePrismaClientIfMissing();
    await applyPendingMigrations(database.url);
    const { closeDb } = await import("../../lib/db");
    try {
      await work();
    } finally {
      await closeDb();
    }
  } finally {
    await database.stop();
  }
}
