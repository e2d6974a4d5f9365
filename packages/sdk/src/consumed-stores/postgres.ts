// Consumed store on Postgres: a unique insert, `ON CONFLICT DO NOTHING`, inserts a row for exactly one
// caller, across processes. Takes any `pg`-compatible pool (`query(text, values)` resolving `{ rowCount }`).
import { assertPaymentIntentId, type ConsumedStore } from "./types";

export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
}

export interface PostgresConsumedStoreOptions {
  /** Table name, optionally schema-qualified (`schema.table`). Default `service_paywall_redemptions`. */
  table?: string;
}

export interface PostgresConsumedStore extends ConsumedStore {
  /** Creates the table when missing (idempotent). Run once at startup or in a migration. */
  ensureSchema(): Promise<void>;
  /** The quoted table name, e.g. for cleanup. */
  readonly table: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function postgresConsumedStore(pool: PgQueryable, options: PostgresConsumedStoreOptions = {}): PostgresConsumedStore {
  if (!pool || typeof pool.query !== "function") throw new TypeError("postgresConsumedStore: a pg-compatible pool is required.");
  const table = quoteTable(options.table ?? "service_paywall_redemptions");
  return {
    table,
    async ensureSchema() {
      await pool.query(
        `CREATE TABLE IF NOT EXISTS ${table} (payment_intent_id text PRIMARY KEY, redeemed_at timestamptz NOT NULL DEFAULT now())`,
      );
    },
    async consume(paymentIntentId) {
      assertPaymentIntentId(paymentIntentId);
      const result = await pool.query(`INSERT INTO ${table} (payment_intent_id) VALUES ($1) ON CONFLICT (payment_intent_id) DO NOTHING`, [
        paymentIntentId,
      ]);
      return result.rowCount === 1;
    },
  };
}

/** Identifiers cannot be bound as parameters: allow only plain names, then quote them. */
function quoteTable(name: string): string {
  const parts = name.split(".");
  if (parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new TypeError(`postgresConsumedStore: invalid table name ${JSON.stringify(name)} (letters, digits, _; optional schema.).`);
  }
  return parts.map((part) => `"${part}"`).join(".");
}
