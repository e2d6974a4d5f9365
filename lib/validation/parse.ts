// zod parsing that turns issues into the contract's `details.fields` list of { path, message }.
import type { z } from "zod";
import { ValidationError } from "../errors";

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what = "request body"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  throw new ValidationError(`Invalid ${what}: ${fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join("; ")}`, fields);
}
