// Row shapes kept per connection (lib/shaped-statement.ts): a named statement's first execution on a connection is
// described, later ones are not (no Describe written, no RowDescription parsed) and give the same rows, typed the same.
// A statement without rows, a failing one and the pool's connections behave as pg's own queries do. And the guarantee
// the cache rests on: once a table a statement reads changes its columns, PostgreSQL refuses to run the statement with
// another result type on that connection, so a kept shape can never be applied to rows of another shape.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShaped } from "../../lib/shaped-statement";

const url = process.env.DATABASE_URL!;
const table = `shaped_${process.pid}_${Date.now()}`;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text, amount bigint, at timestamptz, flags jsonb)`);
  await admin.query(`INSERT INTO ${table} VALUES (1, 'one', 10, '2026-01-01T00:00:00Z', '{"a":1}'), (2, NULL, 20, NULL, NULL)`);
});

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

/** A connection whose Describe messages are counted. */
async function countingClient(): Promise<{ client: pg.Client; describes: () => number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const connection = (client as unknown as { connection: { describe(m: unknown): void } }).connection;
  let count = 0;
  const describe = connection.describe.bind(connection);
  connection.describe = (message: unknown) => {
    count++;
    describe(message);
  };
  return { client, describes: () => count };
}

const run = (client: pg.Client, s: { name: string; text: string }, values: unknown[]) =>
  runShaped(client as unknown as pg.PoolClient, s, values);

describe("ShapedStatement", () => {
  it("describes a statement once per connection; later executions give the same rows without Describe", async () => {
    const select = {
      name: `${table}_select`,
      text: `SELECT id, name, amount, at, flags, id * 2 AS "twice" FROM ${table} WHERE id = ANY($1) ORDER BY id`,
    };
    const plain = await admin.query(select.text, [[1, 2]]);
    const { client, describes } = await countingClient();
    try {
      const results = [];
      for (let i = 0; i < 4; i++) results.push((await run(client, select, [[1, 2]])).rows);
      expect(describes()).toBe(1);
      for (const rows of results) expect(rows).toEqual(plain.rows);
      expect(results[3][0].at).toBeInstanceOf(Date);
      expect(results[3][0].flags).toEqual({ a: 1 });
      expect(results[3][1]).toMatchObject({ name: null, at: null, flags: null });
      // No rows at all, then rows again: the kept shape serves both.
      expect((await run(client, select, [[99]])).rows).toEqual([]);
      expect((await run(client, select, [[2]])).rows).toEqual([plain.rows[1]]);
      expect(describes()).toBe(1);
    } finally {
      await client.end();
    }
  });

  it("a statement without rows counts what it wrote; a failing one rejects with PostgreSQL's code and the connection goes on", async () => {
    const update = { name: `${table}_update`, text: `UPDATE ${table} SET amount = amount + $2 WHERE id = $1` };
    const insert = { name: `${table}_insert`, text: `INSERT INTO ${table} (id) VALUES ($1) RETURNING id` };
    const { client } = await countingClient();
    try {
      for (let i = 0; i < 3; i++) expect((await run(client, update, [2, 1])).rowCount).toBe(1);
      expect((await run(client, insert, [3])).rows).toEqual([{ id: 3 }]);
      await expect(run(client, insert, [3])).rejects.toMatchObject({ code: "23505" });
      expect((await run(client, insert, [4])).rows).toEqual([{ id: 4 }]);
      expect((await admin.query(`SELECT amount FROM ${table} WHERE id = 2`)).rows[0].amount).toBe("23");
    } finally {
      await client.end();
    }
  });

  it("runs on the pool's connections, each describing once", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const select = { name: `${table}_pool`, text: `SELECT id, name FROM ${table} WHERE id = $1` };
    try {
      const rows = await Promise.all(Array.from({ length: 20 }, (_, i) => runShaped(pool, select, [1 + (i % 2)])));
      expect(rows.map((r) => r.rows[0].id)).toEqual(Array.from({ length: 20 }, (_, i) => 1 + (i % 2)));
      expect(pool.totalCount).toBeLessThanOrEqual(2);
    } finally {
      await pool.end();
    }
  });

  it("a table's columns changed under a kept shape: PostgreSQL refuses the statement on that connection, no row is mis-read", async () => {
    const star = { name: `${table}_star`, text: `SELECT * FROM ${table} WHERE id = $1` };
    const { client, describes } = await countingClient();
    try {
      await run(client, star, [1]);
      await run(client, star, [1]);
      expect(describes()).toBe(1);
      await admin.query(`ALTER TABLE ${table} ADD COLUMN extra text DEFAULT 'x'`);
      await expect(run(client, star, [1])).rejects.toThrow(/cached plan must not change result type/);
      // A new connection describes the statement afresh and reads the new column.
      const { client: fresh } = await countingClient();
      try {
        expect((await run(fresh, star, [1])).rows[0].extra).toBe("x");
      } finally {
        await fresh.end();
      }
    } finally {
      await client.end();
    }
  });
});
