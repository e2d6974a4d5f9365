// The history npm run bench:scale gives its merchant, generated in SQL (minutes for millions of rows on 2 cores, so
// bench-scale.ts keeps each step's result as a template database and later runs copy it). Payment number g of a
// merchant is: a captured PaymentIntent `pi_scale<g>` with its capture posting (two ledger entries), its checkout
// (with a description the dashboard's search finds), its order and its `order.paid` event; every tenth payment also
// has a customer `buyer<g>@scale.example`. Newer payments have smaller g.
import type pg from "pg";

/** Bump when the generated rows change: the template databases of an older seed are not reused. */
export const SEED_VERSION = 3;

const CHUNK = 250_000;

/** Words of the checkouts' descriptions: "Scale order <g> <word>", so a word matches one payment in eight. */
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

const STATEMENTS = [
  `INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source, captured_at, created_at)
   SELECT 'pi_scale' || g, $1, false, 'captured', 1000, 1000, 'USD', 'api', now(), now() - make_interval(secs => g)
     FROM generate_series($2::int, $3::int) g`,
  `INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id)
   SELECT 'lp_scale' || g, 'capture', $1, false, leg.account, 'USD', leg.amount, 'pi_scale' || g
     FROM generate_series($2::int, $3::int) g,
          (VALUES ('payer', -1000), ('merchant_pending', 1000)) AS leg(account, amount)`,
  `INSERT INTO checkouts (id, merchant_id, livemode, status, amount, currency, description, payment_intent_id, order_id, expires_at, created_at)
   SELECT 'cs_scale' || g, $1, false, 'complete', 1000, 'USD',
          'Scale order ' || g || ' ' || (ARRAY['${WORDS.join("','")}'])[1 + g % ${WORDS.length}],
          'pi_scale' || g, 'ord_scale' || g, now(), now() - make_interval(secs => g)
     FROM generate_series($2::int, $3::int) g`,
  `INSERT INTO orders (id, merchant_id, livemode, status, payment_intent_id, amount, currency, source, created_at)
   SELECT 'ord_scale' || g, $1, false, 'paid', 'pi_scale' || g, 1000, 'USD', 'api', now() - make_interval(secs => g)
     FROM generate_series($2::int, $3::int) g`,
  // Already fanned out: the merchant has no webhook endpoints.
  `INSERT INTO events (id, merchant_id, livemode, type, data, object_id, fanned_out_at, created_at)
   SELECT 'evt_scale' || g, $1, false, 'order.paid',
          jsonb_build_object('object', jsonb_build_object('id', 'ord_scale' || g, 'object', 'order', 'status', 'paid')),
          'ord_scale' || g, now(), now() - make_interval(secs => g)
     FROM generate_series($2::int, $3::int) g`,
  `INSERT INTO customers (id, merchant_id, livemode, name, email, created_at)
   SELECT 'cus_scale' || g, $1, false, 'Buyer ' || g, 'buyer' || g || '@scale.example', now() - make_interval(secs => g)
     FROM generate_series($2::int, $3::int) g WHERE g % 10 = 0`,
];

/** Payments number `from` to `from + count - 1` of the merchant (ids are global: give each merchant its own range). */
export async function seedPayments(db: pg.Client, merchantId: string, from: number, count: number): Promise<void> {
  // The seed's postings are balanced by construction: the per-row balance check at commit is skipped for them (only
  // here, in the bench's own database); the running balances' trigger stays on, as in production.
  await db.query("ALTER TABLE ledger_entries DISABLE TRIGGER ledger_posting_balanced");
  for (const statement of STATEMENTS)
    for (let start = from; start < from + count; start += CHUNK)
      await db.query(statement, [merchantId, start, start + Math.min(CHUNK, from + count - start) - 1]);
  await db.query("ALTER TABLE ledger_entries ENABLE TRIGGER ledger_posting_balanced");
  await db.query("VACUUM ANALYZE payment_intents, ledger_entries, checkouts, orders, events, customers");
}
