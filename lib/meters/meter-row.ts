// A meter read with raw SQL (the hot paths' `Sql`), in the shape Prisma returns, so that the error
// helpers and serializeMeter take either. pg returns BIGINT columns as strings.
import { statement, type Sql } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type Meter } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";
import type { Scope } from "../scope";
import { selectList } from "../sql-model";

/**
 * The meters table for the raw-SQL reads of lib/pagination.ts through Prisma (the list, readMeter): whole rows as
 * Prisma returns them (its raw queries give bigint columns as BigInt, where pg gives strings).
 */
export const METERS: SqlTable = { table: "meters", columns: selectList(Prisma.MeterScalarFieldEnum) };

// By the primary key alone, then the scope (see lib/customers/get-customer.ts: a generic plan on the scope's index).
const READ_METER = statement(
  "meter_read",
  "SELECT * FROM (SELECT * FROM meters WHERE id = $1 OFFSET 0) AS meters WHERE merchant_id = $2 AND livemode = $3",
);

type Big = string | bigint;

export interface MeterRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  customer_id: string;
  status: string;
  currency: string;
  prepaid: boolean;
  payment_method: string;
  threshold_minor: number;
  base_units_per_minor: Big;
  accrued_base: Big;
  reserved_base: Big;
  budget_base: Big;
  used_base: Big;
  billed_minor: Big;
  outstanding_minor: Big;
  settlement_count: number;
  funded_minor: Big;
  refunded_minor: Big;
  funding_count: number;
  request_key: string | null;
  settle_due_at: Date | null;
  metadata: Meter["metadata"];
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function readMeterSql(db: Sql, scope: Scope, id: string): Promise<Meter> {
  const [row] = await db.rows<MeterRow>(READ_METER, [id, scope.merchantId, scope.livemode]);
  if (!row) throw new NotFoundError("meter", id);
  return meterFromRow(row);
}

/** A raw `SELECT *` row of meters in the shape Prisma returns. */
export function meterFromRow(row: MeterRow): Meter {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    customerId: row.customer_id,
    status: row.status,
    currency: row.currency,
    prepaid: row.prepaid,
    paymentMethod: row.payment_method,
    thresholdMinor: row.threshold_minor,
    baseUnitsPerMinor: BigInt(row.base_units_per_minor),
    accruedBase: BigInt(row.accrued_base),
    reservedBase: BigInt(row.reserved_base),
    budgetBase: BigInt(row.budget_base),
    usedBase: BigInt(row.used_base),
    billedMinor: BigInt(row.billed_minor),
    outstandingMinor: BigInt(row.outstanding_minor),
    settlementCount: row.settlement_count,
    fundedMinor: BigInt(row.funded_minor),
    refundedMinor: BigInt(row.refunded_minor),
    fundingCount: row.funding_count,
    requestKey: row.request_key,
    settleDueAt: row.settle_due_at,
    metadata: row.metadata,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** pg's error for a unique violation (code 23505) on the named constraint. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === constraint;
}

/** pg's error for a value out of a column's range (code 22003, e.g. a BIGINT sum that would overflow). */
export function isOutOfRange(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "22003";
}
