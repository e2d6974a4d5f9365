// Detail pages: a domain NotFoundError (missing, another merchant's, or the other mode's object) becomes
// the dashboard's 404 page; anything else stays an error.
import { notFound } from "next/navigation";
import { NotFoundError } from "../errors";

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}
