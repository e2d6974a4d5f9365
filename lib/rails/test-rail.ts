// The test rail: a stand-in processor with its own books in its own tables, written on its own connection
// (never inside the service's transaction), idempotent on the charge key, like an external system. Being this
// database's tables, its books commit unflushed (side-pool.ts) and take the charge attempt with the charge
// (Rail.chargeWithAttempt): nothing outside the database is ever charged.
// Outcomes come from the test payment methods; `cus_...` charges that customer's test wallet.
import type pg from "pg";
import { sqlOn, statement, withWritesBefore } from "../db";
import { createId } from "../ids";
import { sidePool, sideTransaction } from "../side-pool";
import {
  RailUnavailableError,
  type AttemptWrite,
  type ChargeRequest,
  type ChargeResult,
  type Rail,
  type RefundRequest,
  type RefundResult,
} from "./rail";
import { isCustomerWalletMethod, isX402TestPaymentMethod, requiresAuthentication, testPaymentMethodOutcome } from "./test-cards";
import { testRailDisputes } from "./test-rail-disputes";

interface ChargeRow {
  id: string;
  status: "succeeded" | "declined" | "pending";
  decline_reason: string | null;
}

function toResult(row: ChargeRow): ChargeResult {
  if (row.status === "declined") return { status: "declined", chargeId: row.id, reason: row.decline_reason ?? "generic_decline" };
  return { status: row.status, chargeId: row.id };
}

// A charge that debits no wallet, in one statement that commits on its own: the first with its key is the charge, a
// second finds it. One that lost a race to a concurrent first (its insert did nothing, and the statement's snapshot
// predates that commit) finds it in a new statement.
const CHARGE = statement(
  "test_rail_charge",
  `WITH made AS (
     INSERT INTO test_rail_charges (id, charge_key, amount, currency, payment_method, status, decline_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (charge_key) DO NOTHING RETURNING id, status, decline_reason)
   SELECT id, status, decline_reason FROM made
   UNION ALL SELECT id, status, decline_reason FROM test_rail_charges WHERE charge_key = $2 AND NOT EXISTS (SELECT 1 FROM made)`,
);
const FIND_CHARGE = statement("test_rail_find_charge", "SELECT id, status, decline_reason FROM test_rail_charges WHERE charge_key = $1");
// The same after an attempt's adoption (AttemptWrite.adopts, the CTE `attempt0`): the charge made only when it adopted,
// in one row that says whether it did (its charge columns null when it did not, or when it lost the race above).
const CHARGE_IF_ADOPTED = statement(
  "test_rail_charge_if_adopted",
  `WITH made AS (
     INSERT INTO test_rail_charges (id, charge_key, amount, currency, payment_method, status, decline_reason)
     SELECT $1::text, $2::text, $3::int, $4::text, $5::text, $6::text, $7::text WHERE EXISTS (SELECT 1 FROM attempt0)
     ON CONFLICT (charge_key) DO NOTHING RETURNING id, status, decline_reason),
   charge AS (
     SELECT id, status, decline_reason FROM made
     UNION ALL SELECT id, status, decline_reason FROM test_rail_charges WHERE charge_key = $2 AND NOT EXISTS (SELECT 1 FROM made))
   SELECT EXISTS (SELECT 1 FROM attempt0) AS adopted, charge.id, charge.status, charge.decline_reason FROM (SELECT 1) one LEFT JOIN charge ON true`,
);

async function chargeWithoutWallet(
  request: ChargeRequest,
  status: ChargeRow["status"],
  declineReason: string | null,
  attempt: AttemptWrite | undefined,
): Promise<ChargeResult | null> {
  const rail = sqlOn(sidePool("test-rail"));
  const values = [createId("railCharge"), request.key, request.amount, request.currency, request.paymentMethod, status, declineReason];
  const charge = withWritesBefore({ statement: attempt?.adopts ? CHARGE_IF_ADOPTED : CHARGE, values }, attempt ? [attempt] : [], "attempt");
  const [row] = await rail.rows<ChargeRow & { adopted?: boolean }>(charge.statement, [...charge.values]);
  if (row?.adopted === false) return null;
  return toResult(row?.id ? row : (await rail.rows<ChargeRow>(FIND_CHARGE, [request.key]))[0]);
}

/** A customer's test wallet debited with the charge, both or neither: one charge per key, even when two callers race. */
function chargeWallet(request: ChargeRequest, attempt: AttemptWrite | undefined): Promise<ChargeResult | null> {
  return sideTransaction("test-rail", async (client) => {
    if (attempt) {
      const written = await client.query({ name: attempt.statement.name, text: attempt.statement.text, values: [...attempt.values] });
      if (attempt.adopts && !written.rowCount) return null; // not adopted: nothing charged
    }
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`test-rail:${request.key}`]);
    const existing = await findCharge(client, request.key);
    if (existing) return toResult(existing);
    const debited = await client.query(
      `UPDATE test_wallets SET balance = balance - $3, updated_at = now()
        WHERE customer_id = $1 AND currency = $2 AND balance >= $3`,
      [request.paymentMethod, request.currency, request.amount],
    );
    const row: ChargeRow = {
      id: createId("railCharge"),
      status: debited.rowCount === 1 ? "succeeded" : "declined",
      decline_reason: debited.rowCount === 1 ? null : "insufficient_funds",
    };
    await client.query(
      `INSERT INTO test_rail_charges (id, charge_key, amount, currency, payment_method, status, decline_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, request.key, request.amount, request.currency, request.paymentMethod, row.status, row.decline_reason],
    );
    return toResult(row);
  });
}

async function findCharge(client: pg.PoolClient, key: string): Promise<ChargeRow | undefined> {
  const { rows } = await client.query<ChargeRow>("SELECT id, status, decline_reason FROM test_rail_charges WHERE charge_key = $1", [key]);
  return rows[0];
}

/** The charge, with the attempt's write first on the same connection when given (Rail.chargeWithAttempt). */
async function charge(request: ChargeRequest, attempt: AttemptWrite | undefined): Promise<ChargeResult | null> {
  const known = testPaymentMethodOutcome(request.paymentMethod);
  if (known?.status === "unavailable") throw new RailUnavailableError("The test rail is unavailable (pm_rail_unavailable).", true);
  if (known?.status === "declined") return chargeWithoutWallet(request, "declined", known.reason, attempt);
  if (requiresAuthentication(request.paymentMethod) && !request.authenticated)
    return chargeWithoutWallet(request, "declined", "authentication_required", attempt);
  if (isCustomerWalletMethod(request.paymentMethod)) return chargeWallet(request, attempt);
  if (!known && !isX402TestPaymentMethod(request.paymentMethod))
    return chargeWithoutWallet(request, "declined", "invalid_payment_method", attempt);
  return chargeWithoutWallet(request, known?.status === "pending" ? "pending" : "succeeded", null, attempt);
}

export const testRail: Rail = {
  name: "test",
  // Its failures are chosen by the caller (pm_rail_unavailable): each merchant and mode trips its own circuit.
  breakerPerMerchant: true,
  // In live mode (LIVE_RAIL=test, staging) its provider's webhook reports disputes (test-rail-disputes.ts).
  disputes: testRailDisputes,

  supportsPaymentMethod(paymentMethod) {
    return testPaymentMethodOutcome(paymentMethod) !== undefined || isCustomerWalletMethod(paymentMethod);
  },

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    return (await charge(request, undefined))!; // null only after an attempt's adoption
  },

  chargeWithAttempt(request: ChargeRequest, attempt: AttemptWrite): Promise<ChargeResult | null> {
    return charge(request, attempt);
  },

  async retrieveCharge(key: string): Promise<ChargeResult | null> {
    return sideTransaction("test-rail", async (client) => {
      // A pending charge (pm_card_pending) is decided when it is next asked about: it succeeds.
      const decided = await client.query<ChargeRow>(
        "UPDATE test_rail_charges SET status = 'succeeded' WHERE charge_key = $1 AND status = 'pending' RETURNING id, status, decline_reason",
        [key],
      );
      const row = decided.rows[0] ?? (await findCharge(client, key));
      return row ? toResult(row) : null;
    });
  },

  async refund(request: RefundRequest): Promise<RefundResult> {
    return sideTransaction("test-rail", async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`test-rail-refund:${request.key}`]);
      const existing = await client.query<{ id: string; amount: string }>(
        "SELECT id, amount FROM test_rail_refunds WHERE refund_key = $1",
        [request.key],
      );
      if (existing.rows[0]) return { refundId: existing.rows[0].id, amount: Number(existing.rows[0].amount) };
      const charge = await client.query<{ payment_method: string; currency: string }>(
        `UPDATE test_rail_charges SET amount_refunded = amount_refunded + $2
          WHERE id = $1 AND status = 'succeeded' AND amount_refunded + $2 <= amount
          RETURNING payment_method, currency`,
        [request.chargeId, request.amount],
      );
      if (charge.rowCount !== 1)
        throw new RailUnavailableError(`The test rail refused to refund ${request.amount} of charge ${request.chargeId}.`);
      const { payment_method: method, currency } = charge.rows[0];
      if (isCustomerWalletMethod(method)) {
        await client.query(
          `INSERT INTO test_wallets (customer_id, currency, balance) VALUES ($1, $2, $3)
           ON CONFLICT (customer_id, currency) DO UPDATE SET balance = test_wallets.balance + EXCLUDED.balance, updated_at = now()`,
          [method, currency, request.amount],
        );
      }
      const refundId = createId("railRefund");
      await client.query("INSERT INTO test_rail_refunds (id, refund_key, charge_id, amount) VALUES ($1, $2, $3, $4)", [
        refundId,
        request.key,
        request.chargeId,
        request.amount,
      ]);
      return { refundId, amount: request.amount };
    });
  },
};
