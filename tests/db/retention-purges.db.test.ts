// The tick's purges are bounded (docs/operations.md, "Retention"): on a backlog bigger than one batch, one run
// deletes exactly one batch of what is due and nothing that is not, and running it again drains the rest, down
// to 0. On a database of this file's own, so that no other file's tick purges these rows meanwhile.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PURGE_BATCH as NONCE_BATCH, purgeAgentNonces } from "../../lib/agent-identity/purge-nonces";
import { PURGE_BATCH as LINK_BATCH, purgeLinkTokens } from "../../lib/auth/email-links";
import { PURGE_BATCH as THROTTLE_BATCH, purgeSignInThrottles } from "../../lib/auth/limits";
import { PURGE_BATCH as SIGN_UP_BATCH, purgePendingSignUps } from "../../lib/auth/pending-sign-ups";
import { PURGE_BATCH as SESSION_BATCH, purgeEndedSessions } from "../../lib/auth/sessions";
import { sqlOn, type Sql } from "../../lib/db";
import { PURGE_BATCH as LEASE_BATCH, purgeExpiredStreamLeases } from "../../lib/events/stream-leases";
import { PURGE_BATCH as OAUTH_BATCH, purgeOAuthLeftovers } from "../../lib/oauth/purge";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";

let database: OwnDatabase;
let pool: pg.Pool;
let sql: Sql;

beforeAll(async () => {
  database = await ownDatabase("retention");
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  sql = sqlOn(pool);
  await pool.query(`INSERT INTO users (id, email, password_hash) VALUES ('usr_retention', 'retention@example.com', 'x')`);
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** Rows due beyond one batch: the second run deletes these. */
const EXTRA = 7;

const count = async (query: string) => Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (${query}) q`)).rows[0].n);

interface Case {
  name: string;
  batch: number;
  /** Inserts `n` rows the purge must delete ($1 = n) and a few it must keep. */
  insert: string[];
  /** Counts the rows still due / the rows to keep. */
  due: string;
  kept: string;
  purge: () => Promise<number>;
}

const CASES: Case[] = [
  {
    name: "agent nonces past their window",
    batch: NONCE_BATCH,
    insert: [
      `INSERT INTO agent_nonces (network, keyid, nonce, expires_at)
       SELECT 'visa', 'key_old', 'n' || i, now() - interval '1 minute' - i * interval '1 millisecond' FROM generate_series(1, $1) i`,
      `INSERT INTO agent_nonces (network, keyid, nonce, expires_at)
       SELECT 'visa', 'key_live', 'n' || i, now() + interval '5 minutes' FROM generate_series(1, 3) i`,
    ],
    due: `SELECT 1 FROM agent_nonces WHERE keyid = 'key_old'`,
    kept: `SELECT 1 FROM agent_nonces WHERE keyid = 'key_live'`,
    purge: () => purgeAgentNonces(database.db),
  },
  {
    name: "email link tokens a day past their expiry",
    batch: LINK_BATCH,
    insert: [
      `INSERT INTO email_link_tokens (token_hash, user_id, purpose, expires_at)
       SELECT 'old' || i, 'usr_retention', 'reset_password', now() - interval '25 hours' FROM generate_series(1, $1) i`,
      `INSERT INTO email_link_tokens (token_hash, user_id, purpose, expires_at)
       VALUES ('recent', 'usr_retention', 'reset_password', now() - interval '23 hours'),
              ('live', 'usr_retention', 'confirm_email', now() + interval '1 hour')`,
    ],
    due: `SELECT 1 FROM email_link_tokens WHERE token_hash LIKE 'old%'`,
    kept: `SELECT 1 FROM email_link_tokens WHERE token_hash IN ('recent', 'live')`,
    purge: () => purgeLinkTokens(database.db),
  },
  {
    name: "pending sign-ups a day past their expiry",
    batch: SIGN_UP_BATCH,
    insert: [
      `INSERT INTO pending_sign_ups (token_hash, name, email, password_hash, expires_at)
       SELECT 'old' || i, 'Old', 'old' || i || '@example.com', 'x', now() - interval '25 hours' FROM generate_series(1, $1) i`,
      `INSERT INTO pending_sign_ups (token_hash, name, email, password_hash, expires_at)
       VALUES ('recent', 'Recent', 'recent@example.com', 'x', now() - interval '23 hours'),
              ('live', 'Live', 'live@example.com', 'x', now() + interval '1 hour')`,
    ],
    due: `SELECT 1 FROM pending_sign_ups WHERE token_hash LIKE 'old%'`,
    kept: `SELECT 1 FROM pending_sign_ups WHERE token_hash IN ('recent', 'live')`,
    purge: () => purgePendingSignUps(database.db),
  },
  {
    name: "sign-in throttles idle long enough and not blocking",
    batch: THROTTLE_BATCH,
    insert: [
      `INSERT INTO sign_in_throttles (email, failures, last_attempt_at)
       SELECT 'old' || i || '@example.com', 3, now() - interval '25 hours' FROM generate_series(1, $1) i`,
      `INSERT INTO sign_in_throttles (email, failures, last_attempt_at, blocked_until)
       VALUES ('blocked@example.com', 30, now() - interval '25 hours', now() + interval '1 hour'),
              ('recent@example.com', 3, now() - interval '1 hour', NULL)`,
    ],
    due: `SELECT 1 FROM sign_in_throttles WHERE email LIKE 'old%'`,
    kept: `SELECT 1 FROM sign_in_throttles WHERE email IN ('blocked@example.com', 'recent@example.com')`,
    purge: () => purgeSignInThrottles(database.db),
  },
  {
    name: "dashboard sessions ended a day ago",
    batch: SESSION_BATCH,
    insert: [
      `INSERT INTO dashboard_sessions (id, user_id, expires_at)
       SELECT 'old' || i, 'usr_retention', now() - interval '25 hours' FROM generate_series(1, $1) i`,
      `INSERT INTO dashboard_sessions (id, user_id, expires_at)
       VALUES ('recent', 'usr_retention', now() - interval '23 hours'), ('live', 'usr_retention', now() + interval '1 hour')`,
    ],
    due: `SELECT 1 FROM dashboard_sessions WHERE id LIKE 'old%'`,
    kept: `SELECT 1 FROM dashboard_sessions WHERE id IN ('recent', 'live')`,
    purge: () => purgeEndedSessions(database.db),
  },
  {
    name: "event stream leases of dead processes",
    batch: LEASE_BATCH,
    insert: [
      `INSERT INTO event_stream_leases (id, merchant_id, api_key_id, expires_at)
       SELECT 'old' || i, 'mer_retention', 'key_retention', now() - interval '1 minute' FROM generate_series(1, $1) i`,
      `INSERT INTO event_stream_leases (id, merchant_id, api_key_id, expires_at)
       VALUES ('live', 'mer_retention', 'key_retention', now() + interval '1 minute')`,
    ],
    due: `SELECT 1 FROM event_stream_leases WHERE id LIKE 'old%'`,
    kept: `SELECT 1 FROM event_stream_leases WHERE id = 'live'`,
    purge: () => purgeExpiredStreamLeases(database.db),
  },
];

describe("the tick's purges delete one batch a run", () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.batch.toLocaleString("en")} a run, the rest on the next runs, nothing that is not due`, async () => {
      expect(c.batch).toBe(5_000);
      const n = c.batch + EXTRA;
      for (const insert of c.insert) await pool.query(insert, insert.includes("$1") ? [n] : []);
      const kept = await count(c.kept);
      expect(await count(c.due)).toBe(n);

      expect(await c.purge()).toBe(c.batch);
      expect(await count(c.due)).toBe(EXTRA);
      expect(await count(c.kept)).toBe(kept);

      expect(await c.purge()).toBe(EXTRA);
      expect(await c.purge()).toBe(0);
      expect(await count(c.due)).toBe(0);
      expect(await count(c.kept)).toBe(kept);
    });
  }

  it("OAuth codes, access and refresh tokens a day past their expiry: a batch of each table a run", async () => {
    expect(OAUTH_BATCH).toBe(5_000);
    const n = OAUTH_BATCH + EXTRA;
    await pool.query(
      `INSERT INTO oauth_authorization_codes (code_hash, client_id, merchant_id, user_id, livemode, redirect_uri, code_challenge, resource, scopes, expires_at)
       SELECT 'old' || i, 'cli_r', 'mer_r', 'usr_r', false, 'https://client.example/cb', 'x', 'https://pay.example/mcp', '{}'::text[], now() - interval '25 hours'
         FROM generate_series(1, $1) i
       UNION ALL SELECT 'recent', 'cli_r', 'mer_r', 'usr_r', false, 'https://client.example/cb', 'x', 'https://pay.example/mcp', '{}'::text[], now() - interval '23 hours'`,
      [n],
    );
    for (const table of ["oauth_access_tokens", "oauth_refresh_tokens"]) {
      await pool.query(
        `INSERT INTO ${table} (token_hash, grant_id, expires_at)
         SELECT 'old' || i, 'grant_r', now() - interval '25 hours' FROM generate_series(1, $1) i
         UNION ALL SELECT 'recent', 'grant_r', now() - interval '23 hours'
         UNION ALL SELECT 'live', 'grant_r', now() + interval '1 hour'`,
        [n],
      );
    }
    const due = `SELECT 1 FROM oauth_authorization_codes WHERE code_hash LIKE 'old%'
                 UNION ALL SELECT 1 FROM oauth_access_tokens WHERE token_hash LIKE 'old%'
                 UNION ALL SELECT 1 FROM oauth_refresh_tokens WHERE token_hash LIKE 'old%'`;
    const kept = `SELECT 1 FROM oauth_authorization_codes WHERE code_hash = 'recent'
                  UNION ALL SELECT 1 FROM oauth_access_tokens WHERE token_hash IN ('recent', 'live')
                  UNION ALL SELECT 1 FROM oauth_refresh_tokens WHERE token_hash IN ('recent', 'live')`;

    expect(await purgeOAuthLeftovers(sql)).toBe(3 * OAUTH_BATCH);
    expect(await count(due)).toBe(3 * EXTRA);
    expect(await count(kept)).toBe(5);
    expect(await purgeOAuthLeftovers(sql)).toBe(3 * EXTRA);
    expect(await purgeOAuthLeftovers(sql)).toBe(0);
    expect(await count(kept)).toBe(5);
  });
});
