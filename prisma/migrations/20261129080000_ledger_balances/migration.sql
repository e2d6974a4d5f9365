-- Issue 38: balances that do not sum history. Every insert into the ledger also records, in the same statement (a
-- statement trigger over the inserted rows), its net amount per (merchant, mode, account, currency) as a delta row:
-- an insert, never an update, so concurrent postings of one merchant never wait on each other. The tick folds the
-- deltas into one running total per key (ledger_balances), one folder at a time, moving each delta exactly once in
-- one transaction. A balance is its total plus its deltas not folded yet: bounded by what arrived since the last
-- fold, never by the merchant's history. The same fold keeps daily totals per key (ledger_daily, the UTC day of the
-- entries), which the dashboard's volume chart sums over its days. The ledger stays the source of truth
-- (verify-ledger compares).
CREATE TABLE "ledger_balances" (
  "merchant_id" TEXT NOT NULL,
  "livemode" BOOLEAN NOT NULL,
  "account" TEXT NOT NULL,
  "currency" TEXT NOT NULL,
  "amount" BIGINT NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "ledger_balances_pkey" PRIMARY KEY ("merchant_id", "livemode", "account", "currency")
);
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_merchant_id_fkey"
  FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "ledger_daily" (
  "merchant_id" TEXT NOT NULL,
  "livemode" BOOLEAN NOT NULL,
  "account" TEXT NOT NULL,
  "currency" TEXT NOT NULL,
  "day" DATE NOT NULL,
  "amount" BIGINT NOT NULL,
  CONSTRAINT "ledger_daily_pkey" PRIMARY KEY ("merchant_id", "livemode", "account", "day", "currency")
);
ALTER TABLE "ledger_daily" ADD CONSTRAINT "ledger_daily_merchant_id_fkey"
  FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "ledger_balance_deltas" (
  "id" BIGSERIAL NOT NULL,
  "merchant_id" TEXT NOT NULL,
  "livemode" BOOLEAN NOT NULL,
  "account" TEXT NOT NULL,
  "currency" TEXT NOT NULL,
  "day" DATE NOT NULL,
  "amount" BIGINT NOT NULL,
  CONSTRAINT "ledger_balance_deltas_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "ledger_balance_deltas_merchant_id_livemode_idx" ON "ledger_balance_deltas" ("merchant_id", "livemode");
ALTER TABLE "ledger_balance_deltas" ADD CONSTRAINT "ledger_balance_deltas_merchant_id_fkey"
  FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION ledger_record_deltas() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO ledger_balance_deltas (merchant_id, livemode, account, currency, day, amount)
  SELECT merchant_id, livemode, account, currency, (created_at AT TIME ZONE \047UTC\047)::date, sum(amount) FROM new_entries
   GROUP BY merchant_id, livemode, account, currency, (created_at AT TIME ZONE \047UTC\047)::date\073
  RETURN NULL\073
END
';

CREATE TRIGGER "ledger_balance_deltas_on_insert" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_record_deltas();

-- What the ledger holds today, as the first totals and days.
INSERT INTO ledger_balances (merchant_id, livemode, account, currency, amount)
SELECT merchant_id, livemode, account, currency, sum(amount) FROM ledger_entries
 GROUP BY merchant_id, livemode, account, currency;
INSERT INTO ledger_daily (merchant_id, livemode, account, currency, day, amount)
SELECT merchant_id, livemode, account, currency, (created_at AT TIME ZONE 'UTC')::date, sum(amount) FROM ledger_entries
 GROUP BY merchant_id, livemode, account, currency, (created_at AT TIME ZONE 'UTC')::date;
