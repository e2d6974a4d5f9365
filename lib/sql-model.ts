// Rows of Prisma's models read and written with prepared statements (lib/db.ts sqlIn): the SELECT list whose rows
// are the objects Prisma returns (each column aliased to its field; pg gives the same types: int4 numbers,
// timestamptz Dates, parsed jsonb), and an INSERT or UPDATE of the fields given, its text named by its hash, so
// that each shape of write is parsed and planned once per connection. A column's name is its field's in snake case,
// as every @map in prisma/schema.prisma spells it (tests/db/sql-model.db.test.ts checks them all).
import { createHash } from "node:crypto";
import { sqlIn, statement, withWritesBefore, type Db, type PlannedWrite, type Statement } from "./db";
import { Prisma } from "./generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "./state-machine";

/** A model's scalar fields, as Prisma lists them (`Prisma.PaymentIntentScalarFieldEnum`). */
export type ModelFields = Record<string, string>;

// The texts below are built on every write of the hot paths (a sale makes a dozen): their parts are made once per
// field, model and statement text, and kept (a bounded set: the schema's fields, its models, the shapes of writes).
const columns = new Map<string, string>();

export function columnOf(field: string): string {
  let column = columns.get(field);
  if (column === undefined) columns.set(field, (column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return column;
}

const selectLists = new WeakMap<ModelFields, Map<string, string>>();

/** `col AS "field", ...` for every field (prefixed by `table.` when given). */
export function selectList(fields: ModelFields, table?: string): string {
  let byTable = selectLists.get(fields);
  if (!byTable) selectLists.set(fields, (byTable = new Map()));
  const at = table ? `${table}.` : "";
  let list = byTable.get(at);
  if (list === undefined) {
    list = Object.keys(fields)
      .map((field) => (columnOf(field) === field ? `${at}${field}` : `${at}${columnOf(field)} AS "${field}"`))
      .join(", ");
    byTable.set(at, list);
  }
  return list;
}

/** A value as pg should send it: JSON (objects and arrays: every such column is jsonb) as text cast by the statement. */
function bound(value: unknown): { value: unknown; cast: string } {
  if (value === Prisma.DbNull || value === undefined) return { value: null, cast: "" };
  if (value === Prisma.JsonNull) return { value: "null", cast: "::jsonb" };
  if (value !== null && typeof value === "object" && !(value instanceof Date)) return { value: JSON.stringify(value), cast: "::jsonb" };
  return { value, cast: "" };
}

const namedStatements = new Map<string, Statement>();
const NAMED_KEPT = 10_000;

/** A statement named `<prefix>_<its text's hash>`: each shape is parsed once per connection. */
export function named(prefix: string, text: string): Statement {
  const key = `${prefix}\u0000${text}`;
  let made = namedStatements.get(key);
  if (made === undefined) {
    if (namedStatements.size >= NAMED_KEPT) namedStatements.clear();
    made = statement(`${prefix}_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`, text);
    namedStatements.set(key, made);
  }
  return made;
}

/** A planned insert (insertRow), with the parts of its text that gatedInserts rebuilds it from. */
export interface PlannedInsert extends PlannedWrite {
  readonly insert: { table: string; columns: string; placeholders: string; returning: string };
}

/** INSERT of `data`'s fields (undefined ones left to their defaults) RETURNING the whole row. */
export function insertRow(table: string, fields: ModelFields, data: Record<string, unknown>): PlannedInsert & { values: unknown[] } {
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
  const insert = { table, columns: columns.join(", "), placeholders: placeholders.join(", "), returning: selectList(fields) };
  const text = `INSERT INTO ${table} (${insert.columns}) VALUES (${insert.placeholders}) RETURNING ${insert.returning}`;
  return { statement: named(`ins_${table}`, text), values, insert };
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

export type { PlannedWrite };

/** A planned transition (plannedTransition): fused before another, it is checked like transition() checks its own. */
export interface PlannedTransition extends PlannedWrite {
  readonly check: { entity: string; table: string; id: string; to: string };
  /** Its row, as the fused statement moved it, is handed to `take` (plannedTransition's `take`). */
  readonly returned?: { fields: ModelFields; take(row: Record<string, unknown>): void };
}

/**
 * `main` with `before` run first in the same statement (lib/db.ts withWritesBefore: independent writes, one round
 * trip). A PlannedTransition's row count comes back as column `moved_<i>` of main's rows, and, when it wants its
 * row (`returned`), each of its fields as column `r<i>.<field>` (typed as pg types its own: Dates, parsed jsonb), so
 * main must end with RETURNING when one is given.
 */
export function fuse(main: PlannedWrite, before: readonly PlannedWrite[]): PlannedWrite {
  const moved = before.flatMap((write, i) => {
    const returned = (write as PlannedTransition | ReturningWrite).returned;
    const checked = "check" in write;
    if (!checked && !returned) return [];
    const fields = Object.keys(returned?.fields ?? {}).map((f) => `(SELECT "${f}" FROM b${i}) AS "r${i}.${f}"`);
    return checked ? [`(SELECT count(*) FROM b${i})::int AS moved_${i}`, ...fields] : fields;
  });
  if (moved.length && !/ RETURNING /.test(main.statement.text)) throw new Error("fuse: a checked transition needs main's RETURNING");
  return withWritesBefore(main, before, "b", moved.length ? `, ${moved.join(", ")}` : "");
}

type Entity<S extends string> = { name: string; table: string; fields: ModelFields; transitions: TransitionTable<S> };

function transitionUpdate<S extends string>(entity: Entity<S>, id: string, to: S, changes: Record<string, unknown>) {
  return transitionRow(entity.table, entity.fields, id, fromStatesOf(entity.transitions, to), {
    ...changes,
    status: to,
    updatedAt: new Date(),
  });
}

/**
 * A transition to run fused before another write (transition()'s `before`), checked as that transition checks its
 * own. `take`: gets the row as it moved it (as transition() returns its own), before transition() returns.
 */
export function plannedTransition<S extends string, R = Record<string, unknown>>(
  entity: Entity<S>,
  id: string,
  to: S,
  changes: Record<string, unknown> = {},
  take?: (row: R) => void,
): PlannedTransition {
  const returned = take && { fields: entity.fields, take: take as (row: Record<string, unknown>) => void };
  return { ...transitionUpdate(entity, id, to, changes), check: { entity: entity.name, table: entity.table, id, to }, returned };
}

/**
 * A transition planned from the row as this transaction knows it, for a row no other transaction can change meanwhile
 * (one it inserted, or holds locked, and has not changed since): the UPDATE as transition() runs it, deferred (deferWrites)
 * and checked to move the row (mustChange), and the row as it will be, without a round trip. A status the table does
 * not allow to move to `to` is refused at once, with transition()'s 409. `changes`: plain values only (no Prisma
 * update operation, no Prisma null), so that the row is what the UPDATE writes; a jsonb value comes back from the
 * database with its keys in jsonb's order, not the object's.
 */
export function predictedTransition<S extends string, R extends { id: string; status: string }>(
  entity: Entity<S>,
  row: R,
  to: S,
  changes: Record<string, unknown> = {},
): { write: PlannedWrite; row: R } {
  const from = fromStatesOf(entity.transitions, to);
  if (!from.includes(row.status as S)) throw transitionConflict(entity.name, row.id, row.status, to);
  const set = Object.fromEntries(Object.entries({ ...changes, status: to, updatedAt: new Date() }).filter(([, v]) => v !== undefined));
  for (const [field, value] of Object.entries(set))
    if (isOperationOrPrismaNull(value)) throw new Error(`predictedTransition: ${entity.table}.${field} is not a plain value`);
  const update = transitionRow(entity.table, entity.fields, row.id, from, set);
  return { write: { ...update, mustChange: `${entity.name} ${row.id} could not move to ${to}` }, row: { ...row, ...set } };
}

const UPDATE_OPERATIONS = new Set(["set", "increment", "decrement", "multiply", "divide", "push", "unset"]);

function isOperationOrPrismaNull(value: unknown): boolean {
  if (value === null || typeof value !== "object" || value instanceof Date) return false;
  if (value === Prisma.DbNull || value === Prisma.JsonNull || value === Prisma.AnyNull) return true;
  const keys = Object.keys(value);
  return keys.length === 1 && UPDATE_OPERATIONS.has(keys[0]);
}

/**
 * The one transition of an entity (its table's row `id` moved to `to`, with `changes` and `updatedAt`), allowed by
 * its transition table and checked by the UPDATE itself: the row as it now is, or 409 naming the status it has.
 * `before`: other writes of the transaction, independent of this one, fused into its statement (fuse); a planned
 * transition among them is checked after this one, with the same 409.
 */
export async function transition<R, S extends string>(
  db: Db,
  entity: Entity<S>,
  id: string,
  to: S,
  changes: Record<string, unknown> = {},
  before: readonly PlannedWrite[] = [],
): Promise<R> {
  const update = fuse(transitionUpdate(entity, id, to, changes), before);
  const [row] = await sqlIn(db).rows<R & Record<string, unknown>>(update.statement, [...update.values]);
  if (!row) throw await conflictOf(db, { entity: entity.name, table: entity.table, id, to });
  const taken: (() => void)[] = [];
  for (const [i, write] of before.entries()) {
    if (!("check" in write)) continue;
    const planned = write as PlannedTransition;
    if (row[`moved_${i}`] !== 1) throw await conflictOf(db, planned.check);
    delete row[`moved_${i}`];
    if (planned.returned) taken.push(takeRow(row, `r${i}.`, planned.returned));
  }
  for (const take of taken) take();
  return row;
}

/** A planned insert (insertRow) fused before another, whose row comes back too (its RETURNING's columns). */
export interface ReturningWrite extends PlannedWrite {
  readonly returned: { fields: ModelFields; take(row: Record<string, unknown>): void };
}

/** `write` asking for its row back when fused (fuse): handed to `take` by takeReturned. */
export function returning<W extends PlannedWrite>(
  write: W,
  fields: ModelFields,
  take: (row: Record<string, unknown>) => void,
): W & ReturningWrite {
  return { ...write, returned: { fields, take } };
}

/** Hands each ReturningWrite of `before` its row, out of main's row that fuse made (its columns removed from it). */
export function takeReturned(row: Record<string, unknown>, before: readonly PlannedWrite[]): void {
  for (const [i, write] of before.entries()) {
    if ("check" in write || !("returned" in write)) continue;
    takeRow(row, `r${i}.`, (write as ReturningWrite).returned)();
  }
}

/**
 * insertRow's inserts (rebuilt from their parts) as CTEs `g0, g1, ...` of another statement, each run only when that statement's CTE `gate`
 * returned a row (`INSERT ... SELECT <the values> FROM gate`: PostgreSQL types each parameter by its column, as in
 * VALUES). Their parameters are renumbered after the statement's own `$1..$offset`. A returning write's row comes back
 * as columns `r<i>.<field>` of the statement's row (`columns`, for its SELECT list), taken by takeReturned; when the
 * gate is empty they are null, and nothing was inserted. The CTEs must follow `gate` in the statement's WITH list.
 */
export function gatedInserts(
  writes: readonly PlannedInsert[],
  gate: string,
  offset: number,
): { ctes: string; columns: string; values: unknown[] } {
  const values: unknown[] = [];
  const ctes = writes.map((write, i) => {
    const at = offset + values.length;
    values.push(...write.values);
    const { table, columns, placeholders, returning } = write.insert;
    const renumbered = placeholders.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`);
    return `g${i} AS (INSERT INTO ${table} (${columns}) SELECT ${renumbered} FROM ${gate} RETURNING ${returning})`;
  });
  const columns = writes.flatMap((write, i) => {
    const returned = (write as PlannedInsert & Partial<ReturningWrite>).returned;
    return returned ? Object.keys(returned.fields).map((f) => `(SELECT "${f}" FROM g${i}) AS "r${i}.${f}"`) : [];
  });
  return { ctes: ctes.join(",\n"), columns: columns.join(", "), values };
}

/** Moves the columns `<prefix><field>` out of main's row into the planned transition's own row, handed over by the returned call. */
function takeRow(row: Record<string, unknown>, prefix: string, returned: NonNullable<PlannedTransition["returned"]>): () => void {
  const own: Record<string, unknown> = {};
  for (const field of Object.keys(returned.fields)) {
    own[field] = row[prefix + field];
    delete row[prefix + field];
  }
  return () => returned.take(own);
}

async function conflictOf(db: Db, check: PlannedTransition["check"]) {
  const [current] = await sqlIn(db).rows<{ status: string }>(statusOf(check.table), [check.id]);
  return transitionConflict(check.entity, check.id, current?.status, check.to);
}

function statusOf(table: string): Statement {
  return statement(`status_of_${table}`, `SELECT status FROM ${table} WHERE id = $1`);
}
