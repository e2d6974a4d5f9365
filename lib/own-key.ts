// Lookups in tables keyed by request data (payment methods, card numbers, codes from a query string):
// only the table's own keys answer. `key in table` and `table[key]` also find what every plain object
// inherits (`constructor`, `toString`, `__proto__`, ...), which turned such names into valid input.
// Pure, so pages and client components use it too.

/** The table's value for `key` when `key` is one of its own keys, else undefined. */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string | null | undefined): V | undefined {
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}
