// Detail pages: a domain NotFoundError (missing, another merchant's, or the other mode's object) becomes
// the dashboard's 404 page, and so does a list cursor (startingAfter) that is not in the list; anything
// else stays an error.
import { notFound } from "next/navigation";
import { NotFoundError, ValidationError } from "../errors";
import { PATH_ID_PATTERN } from "../validation/text-safety";

const isStaleCursor = (err: unknown) =>
  err instanceof ValidationError && ((err.details.fields ?? []) as { path: string }[]).some((field) => field.path === "startingAfter");

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof NotFoundError || isStaleCursor(err)) notFound();
    throw err;
  }
}

/** A detail page's path id; one no id could be (a NUL, a space, too long) is the 404 page and never reaches SQL. */
export async function pageId(params: Promise<{ id: string }>): Promise<string> {
  const { id } = await params;
  if (!PATH_ID_PATTERN.test(id)) notFound();
  return id;
}
