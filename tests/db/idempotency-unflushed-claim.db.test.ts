// An Idempotency-Key's claim alone commits without waiting for its WAL flush (UNFLUSHED_COMMIT_CTE,
// lib/idempotency/claims.ts), and only that statement: the connection's next commit (the work's, or the stored
// response's) waits again, and it is the one that makes the claim durable. Proven on a server of the test's own whose
// synchronous commits wait for a standby that does not exist (synchronous_standby_names): a commit that waits for its
// flush waits there too, until the test cancels the wait (pg_cancel_backend), which PostgreSQL answers with a warning
// ("the transaction has already committed locally"); one that does not wait returns at once, without the warning.
// A caller-chosen key's charge attempt on the test rail rides with the rail's charge (its side pool commits unflushed):
// tests/db/charge-attempt-with-charge.db.test.ts.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOn } from "../../lib/db";
import { claim, storeResponse } from "../../lib/idempotency/claims";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { ownPostgres, type OwnPostgres } from "../helpers/own-postgres";

// Long enough that no statement but a commit waiting for the standby is still running when the cut comes.
const WAIT_CUT_MS = 2_000;

let server: OwnPostgres;
let database: OwnDatabase;
let pool: pg.Pool;
let admin: pg.Client;
let backendPid = 0;
const warnings: string[] = [];

beforeAll(async () => {
  server = await ownPostgres("unflushed-claim");
  database = await ownDatabase("unflushed_claim", server.url("postgres"));
  admin = new pg.Client({ connectionString: server.url("postgres") });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'no_such_standby'");
  await admin.query("SELECT pg_reload_conf()");
  // One connection, kept while idle, so the claim and the statement after it share it (and its pid stays valid).
  pool = new pg.Pool({ connectionString: database.url, max: 1, idleTimeoutMillis: 0 });
  pool.on("connect", (client) => client.on("notice", (notice) => warnings.push(notice.message ?? "")));
  backendPid = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
}, 120_000);

afterAll(async () => {
  // Every commit on this server waits for a standby that does not exist: nothing here may commit, and whatever
  // fails, the server is stopped and its data directory removed (which drops the database too).
  try {
    await database?.db.$disconnect();
    await admin?.end();
    await pool?.end();
  } finally {
    await server?.destroy();
  }
});

/** How long `work` took, and the warnings the connection got meanwhile. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; waitedForFlush: boolean }> {
  warnings.length = 0;
  const started = performance.now();
  // A commit still waiting after WAIT_CUT_MS waits for the standby: its wait is cancelled (it committed locally).
  // The cancel's own answer is awaited too: on a loaded machine it can come after the work's, and left pending it
  // would be cut off by the teardown's admin.end() (an unhandled "Connection terminated").
  let cancelling: Promise<unknown> | undefined;
  const cut = setTimeout(() => (cancelling = admin.query("SELECT pg_cancel_backend($1)", [backendPid])), WAIT_CUT_MS);
  try {
    await work();
  } finally {
    clearTimeout(cut);
    await cancelling;
  }
  const waitedForFlush = warnings.some((w) => /synchronous replication/.test(w));
  return { ms: performance.now() - started, waitedForFlush };
}

describe("the idempotency claim's commit", () => {
  it("does not wait for its flush; the connection's next commit (the stored response) does", async () => {
    const db = sqlOn(pool);
    // Confirms the server under test: an ordinary commit waits (until its wait is cancelled, with the warning).
    const ordinary = await timed(() => pool.query("CREATE TABLE commit_probe (id int)"));
    expect(ordinary.waitedForFlush).toBe(true);
    expect(ordinary.ms).toBeGreaterThanOrEqual(WAIT_CUT_MS - 50);

    let claimId = "";
    const claimed = await timed(async () => {
      const outcome = await claim(db, { apiKeyId: "key_unflushed", livemode: false, key: "k-1" }, "fingerprint");
      if (outcome.kind !== "claimed") throw new Error("expected a fresh claim");
      claimId = outcome.claimId;
    });
    expect(claimed.waitedForFlush).toBe(false);

    // The setting ended with the claim's own transaction: on the same connection the next commit waits again.
    const [{ synchronous_commit }] = (await pool.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows;
    expect(synchronous_commit).toBe("on");
    const stored = await timed(() => storeResponse(db, claimId, 201, '{"id":"cus_1"}'));
    expect(stored.waitedForFlush).toBe(true);

    // Committed and visible: the same key now replays the stored answer.
    expect(await claim(db, { apiKeyId: "key_unflushed", livemode: false, key: "k-1" }, "fingerprint")).toEqual({
      kind: "replay",
      status: 201,
      bodyText: '{"id":"cus_1"}',
    });
  });
});
