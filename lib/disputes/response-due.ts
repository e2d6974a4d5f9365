/** A response due in under this long is shown as urgent. */
const SOON_MS = 3 * 86_400_000;

/** Whether a dispute's response (due at `evidenceDueBy`) is due soon, or overdue. */
export function responseDueSoon(evidenceDueBy: string, now = new Date()): boolean {
  return new Date(evidenceDueBy).getTime() - now.getTime() < SOON_MS;
}
