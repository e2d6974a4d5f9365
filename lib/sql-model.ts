// Rows of Prisma's models read and written with prepared statements (lib/db.ts sqlIn): the SELECT list whose rows
// are the objects Prisma returns (each column aliased to its field; pg gives the same types: int4 numbers,
// timestamptz Dates, parsed jsonb), and an INSERT or UPDATE of the fields given, its text named by its hash, so
// that each shape of write is parsed and planned once per connection. A column's name is its field's in snake case,
// as every @map in prisma/schema.prisma spells it (tests/db/sql-model.db.test.ts checks them all).
import { createHash } from "node:crypto";
import { sqlIn, statement, type Db, type Statement } from "./db";
import { Prisma } from "./generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "./state-machine";

/** A model's scalar fields, as Prisma lists them (`Prisma.PaymentIntentScalarFieldEnum`). */
export type ModelFields = Record<string, string>;

export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `col AS "field", ...` for every field (prefixed by `table.` when given). */
export function selectList(fields: ModelFields, table?: string): string {
  const at = table ? `${table}.` : "";
  return Object.keys(fields)
    .map((field) => (columnOf(field) === field ? `${at}${field}` : `${at}${columnOf(field)} AS "${field}"`))
    .join(", ");
}

/** A value as pg should send it: JSON (objects and arrays: every such column is jsonb) as text cast by the statement. */
function bound(value: unknown): { value: unknown; cast: string } {
  if (value === Prisma.DbNull || value === undefined) return { value: null, cast: "" };
  if (value === Prisma.JsonNull) return { value: "null", cast: "::jsonb" };
  if (value !== null && typeof value === "object" && !(value instanceof Date)) return { value: JSON.stringify(value), cast: "::jsonb" };
  return { value, cast: "" };
}

function named(prefix: string, text: string): Statement {
  return statement(`${prefix}_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`, text);
}

/** INSERT of `data`'s fields (undefined ones left to their defaults) RETURNING the whole row. */
export function insertRow(table: string, fields: ModelFields, data: Record<string, unknown>): { statement: Statement; values: unknown[] } {
  const columns: string[] = [];
  const placeholders: string[] = [];
  const values: unknown[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue;
    if (!(field in fields)) throw new Error(`insertRow: ${table} has no field ${field}`);
    const b = bound(value);
    values.push(b.value);
    columns.push(columnOf(field));
    placeholders.push(`$${values.length}${b.cast}`);
  }
  const text = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${placeholders.join(", ")}) RETURNING ${selectList(fields)}`;
  return { statement: named(`ins_${table}`, text), values };
}

/**
 * UPDATE of one row by id, only from the statuses `from` (the transition's own check), setting `changes` (plain
 * values, or `{ increment: n }`) RETURNING the whole row: none when the row is not in one of those statuses.
 */
export function transitionRow(
  table: string,
  fields: ModelFields,
  id: string,
  from: readonly string[],
  changes: Record<string, unknown>,
): { statement: Statement; values: unknown[] } {
  const values: unknown[] = [id, from];
  const sets: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (!(field in fields)) throw new Error(`transitionRow: ${table} has no field ${field}`);
    const column = columnOf(field);
    const increment =
      value !== null && typeof value === "object" && "increment" in value ? (value as { increment: number }).increment : null;
    if (increment !== null) {
      values.push(increment);
      sets.push(`${column} = ${column} + $${values.length}`);
      continue;
    }
    const b = bound(value);
    values.push(b.value);
    sets.push(`${column} = $${values.length}${b.cast}`);
  }
  const text = `UPDATE ${table} SET ${sets.join(", ")} WHERE id = $1 AND status = ANY($2::text[]) RETURNING ${selectList(fields)}`;
  return { statement: named(`upd_${table}`, text), values };
}

/**
 * The one transition of an entity (its table's row `id` moved to `to`, with `changes` and `updatedAt`), allowed by
 * its transition table and checked by the UPDATE itself: the row as it now is, or 409 naming the status it has.
 */
export async function transition<R, S extends string>(
  db: Db,
  entity: { name: string; table: string; fields: ModelFields; transitions: TransitionTable<S> },
  id: string,
  to: S,
  changes: Record<string, unknown> = {},
): Promise<R> {
  const from = fromStatesOf(entity.transitions, to);
  const update = transitionRow(entity.table, entity.fields, id, from, { ...changes, status: to, updatedAt: new Date() });
  const [row] = await sqlIn(db).rows<R>(update.statement, update.values);
  if (row) return row;
  const [current] = await sqlIn(db).rows<{ status: string }>(statusOf(entity.table), [id]);
  throw transitionConflict(entity.name, id, current?.status, to);
}

function statusOf(table: string): Statement {
  return statement(`status_of_${table}`, `SELECT status FROM ${table} WHERE id = $1`);
}
