// A PostgreSQL server of a test file's own, never the machine's shared one, for tests that stop it, start it
// again and kill it with SIGKILL (tests/http/database-outage.http.test.ts). The embedded binaries, a data
// directory under .data/ that `destroy()` removes, on a free port. Durable settings (not the test suite's
// throwaway ones): with synchronous_commit off, a SIGKILL loses the last commits it acknowledged.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres, type RunningDatabase } from "../../scripts/lib/embedded-postgres";
import { freePort, portIsOpen } from "../../scripts/lib/ports";

export interface OwnPostgres {
  /** URL of a database on this server. */
  url: (database: string) => string;
  /** Fast shutdown (pg_ctl stop -m fast): sessions are terminated (57P01), new connections refused. */
  stop: () => Promise<void>;
  /** Starts it again (after a kill: crash recovery first); resolves once it accepts connections. */
  start: () => Promise<void>;
  /** SIGKILL to the postmaster, as an OOM killer would; resolves once the port is closed. */
  kill: () => Promise<void>;
  destroy: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function ownPostgres(name: string): Promise<OwnPostgres> {
  const port = await freePort();
  const dirName = `pg-${name}-${port}`;
  let running: RunningDatabase = await startEmbeddedPostgres(dirName, port);
  const dataDir = running.dataDir;
  if (!dataDir) throw new Error(`port ${port} already had a PostgreSQL server`);
  const self: OwnPostgres = {
    url: (database) => running.adminUrl(database),
    stop: () => running.stop(),
    async start() {
      // After a SIGKILL the old backends leave their shared memory a moment later: try again until they have.
      for (let attempt = 0; ; attempt++) {
        try {
          running = await startEmbeddedPostgres(dirName, port);
          return;
        } catch (err) {
          if (attempt >= 40) throw err;
          await sleep(100);
        }
      }
    },
    async kill() {
      const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, "SIGKILL");
      while (await portIsOpen(port)) await sleep(20);
    },
    async destroy() {
      if (existsSync(path.join(dataDir, "postmaster.pid")) && (await portIsOpen(port))) await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
}
