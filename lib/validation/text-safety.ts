// Postgres text cannot hold the NUL character; input carrying one is refused up front as a 400
// (or, in a path id, as not found) instead of failing deep in a query.
import { ValidationError } from "../errors";

export function findNulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulPath(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key].join(".");
      const found = findNulPath(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

export function rejectNul(value: unknown, what: string): void {
  const path = findNulPath(value);
  if (path !== null)
    throw new ValidationError(`The ${what} contains a NUL character.`, [{ path, message: "NUL characters are not allowed" }]);
}

/** Ids in paths are short, printable and NUL-free; anything else cannot name an object. */
export const PATH_ID_PATTERN = /^[\x21-\x7E]{1,255}$/;
