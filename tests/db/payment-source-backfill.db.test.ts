// The migration that added `source` (20261125100000_payment_source) backfills what existed before it: a
// database migrated up to the previous migration gets legacy PaymentIntents and orders (a meter's, a
// paywall payment, an API checkout), then the migration itself runs; each row gets its source, and the
// column keeps no default (every writer must name it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseIfMissing, dropDatabase } from "../../scripts/lib/embedded-postgres";

const MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");
const SOURCE_MIGRATION = "20261125100000_payment_source";

const base = new URL(process.env.DATABASE_URL!);
const name = `${base.pathname.slice(1)}_srcbf`;
const adminUrl = Object.assign(new URL(base.href), { pathname: "/postgres" }).href;
let client: pg.Client;

const apply = (migration: string) => client.query(readFileSync(path.join(MIGRATIONS, migration, "migration.sql"), "utf8"));

beforeAll(async () => {
  await createDatabaseIfMissing(adminUrl, name);
  client = new pg.Client({ connectionString: Object.assign(new URL(base.href), { pathname: `/${name}` }).href });
  await client.connect();
  const before = readdirSync(MIGRATIONS)
    .filter((entry) => /^\d{14}_/.test(entry) && entry < SOURCE_MIGRATION)
    .sort();
  for (const migration of before) await apply(migration);
});
afterAll(async () => {
  await client?.end();
  await dropDatabase(adminUrl, name);
});

describe("migration 20261125100000_payment_source", () => {
  it("backfills meter, paywall and api, orders from their PaymentIntent, and leaves no default", async () => {
    await client.query(`INSERT INTO merchants (id, name) VALUES ('mer_legacy0000000000000001', 'Legacy')`);
    const pi = (id: string, extra: string, values: string) =>
      client.query(
        `INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, currency, order_id${extra}) VALUES ('${id}', 'mer_legacy0000000000000001', false, 'captured', 100, 'USD', 'ord_${id}'${values})`,
      );
    await pi("pi_meter", ", meter_id", ", 'mtr_x'");
    await pi("pi_paywall", ", sku", ", 'tool.weather'");
    await pi("pi_api", "", "");
    for (const id of ["pi_meter", "pi_paywall", "pi_api"]) {
      await client.query(
        `INSERT INTO orders (id, merchant_id, livemode, status, payment_intent_id, amount, currency) VALUES ('ord_${id}', 'mer_legacy0000000000000001', false, 'paid', '${id}', 100, 'USD')`,
      );
    }

    await apply(SOURCE_MIGRATION);

    const pis = await client.query(`SELECT id, source FROM payment_intents ORDER BY id`);
    expect(Object.fromEntries(pis.rows.map((r) => [r.id, r.source]))).toEqual({ pi_api: "api", pi_meter: "meter", pi_paywall: "paywall" });
    const orders = await client.query(`SELECT payment_intent_id, source FROM orders ORDER BY id`);
    expect(Object.fromEntries(orders.rows.map((r) => [r.payment_intent_id, r.source]))).toEqual({
      pi_api: "api",
      pi_meter: "meter",
      pi_paywall: "paywall",
    });
    const defaults = await client.query(
      `SELECT table_name, column_default, is_nullable FROM information_schema.columns WHERE column_name = 'source' AND table_name IN ('payment_intents', 'orders') ORDER BY table_name`,
    );
    expect(defaults.rows).toEqual([
      { table_name: "orders", column_default: null, is_nullable: "NO" },
      { table_name: "payment_intents", column_default: null, is_nullable: "NO" },
    ]);
    await expect(
      client.query(
        `INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, currency) VALUES ('pi_new', 'mer_legacy0000000000000001', false, 'captured', 1, 'USD')`,
      ),
    ).rejects.toThrow(/source/);
  });
});
