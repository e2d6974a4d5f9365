import { DomainError } from "../errors";

/**
 * 409 for an operation on a checkout that is no longer open. Commits what the request found and wrote
 * on the way (an expiry it noticed, a crashed charge it recovered), and is the stored idempotent result.
 */
export class ClosedCheckoutError extends DomainError {
  constructor(id: string, status: string) {
    super("CONFLICT", `The checkout ${id} is ${status}, not open.`, { id, status }, true);
  }
}
