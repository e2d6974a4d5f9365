// The tick's sweep of approval requests past their deadline (docs/approvals.md): each in its own transaction, moved
// to expired by one UPDATE ... WHERE status = 'pending' AND expires_at <= now (a concurrent approval and the sweep
// cannot both win), its checkout expired with nothing charged, approval_request.expired emitted.
import { claimExpiry, dueForExpiry } from "../approvals/store";
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { inTransaction } from "../in-transaction";
import { endApproval } from "./await-approval";

export async function expireApprovalRequests(db: Db, now: Date = new Date(), limit = 500): Promise<number> {
  let expired = 0;
  for (const { id } of await dueForExpiry(db, now, limit)) {
    const done = await inTransaction(db, async (tx) => {
      const row = await claimExpiry(tx, id, now);
      if (row) await endApproval(tx, row, "expired");
      return row !== null;
    }).catch((err) => {
      logUnlessDatabaseDown(`could not expire approval request ${id}:`, err);
      return false;
    });
    if (done) expired += 1;
  }
  return expired;
}
