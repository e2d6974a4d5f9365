// Where the service's database is: DATABASE_URL when set, else the embedded PostgreSQL under .data/.
import { createDatabaseIfMissing, startEmbeddedPostgres } from "./embedded-postgres";

export const EMBEDDED_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
export const EMBEDDED_DATABASE = "aps";

export interface ServiceDatabase {
  url: string;
  embedded: boolean;
  stop: () => Promise<void>;
}

export async function openServiceDatabase(): Promise<ServiceDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  const server = await startEmbeddedPostgres("pg", EMBEDDED_PORT);
  await createDatabaseIfMissing(server.adminUrl("postgres"), EMBEDDED_DATABASE);
  return { url: server.adminUrl(EMBEDDED_DATABASE), embedded: true, stop: server.stop };
}
