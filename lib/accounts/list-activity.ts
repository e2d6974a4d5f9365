// The Activity page's rows (Settings, "Activity"): the merchant's rows and its users' own rows (those with
// no merchant: sign-ins, failed sign-ins, password resets), newest first, a page at a time with a cursor
// (the last row's id). Keyset on the indexes: the merchant's rows on (merchant_id, created_at, id), each
// user's own rows on the partial index (user_id, created_at, id) WHERE merchant_id IS NULL, each read
// stopping after a page; so a page costs at most (users + 1) x (page + 1) index rows, whatever the history.
// Which users belong to the merchant is merchant-users.ts's.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { toListPage, requireCursor, type ListPage } from "../pagination";
import { userIdsOfMerchant } from "./merchant-users";

export interface ActivityRow {
  id: string;
  action: string;
  userId: string | null;
  userEmail: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown>;
  createdAt: Date;
}

interface Row {
  id: string;
  action: string;
  user_id: string | null;
  ip: string | null;
  user_agent: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = Prisma.sql`a.id, a.action, a.user_id, a.ip, a.user_agent, a.detail, a.created_at`;

export async function listActivity(
  db: Db,
  merchantId: string,
  query: { startingAfter?: string; limit: number },
): Promise<ListPage<ActivityRow>> {
  let before = Prisma.empty;
  if (query.startingAfter) {
    const [cursor] = await db.$queryRaw<{ created_at: Date; id: string }[]>`
      SELECT a.created_at, a.id FROM account_activity a
       WHERE a.id = ${query.startingAfter}
         AND (a.merchant_id = ${merchantId} OR (a.merchant_id IS NULL AND a.user_id IN (${userIdsOfMerchant(merchantId)})))`;
    requireCursor(cursor ?? null, query.startingAfter);
    before = Prisma.sql`AND (a.created_at, a.id) < (${cursor.created_at}, ${cursor.id})`;
  }
  const take = query.limit + 1;
  const rows = await db.$queryRaw<Row[]>`
    SELECT * FROM (
      (SELECT ${COLUMNS} FROM account_activity a
        WHERE a.merchant_id = ${merchantId} ${before}
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${take})
      UNION ALL
      (SELECT own.* FROM (${userIdsOfMerchant(merchantId)}) AS members(id)
        CROSS JOIN LATERAL (
          SELECT ${COLUMNS} FROM account_activity a
           WHERE a.user_id = members.id AND a.merchant_id IS NULL ${before}
           ORDER BY a.created_at DESC, a.id DESC LIMIT ${take}) own)
    ) page
    ORDER BY created_at DESC, id DESC LIMIT ${take}`;
  const userIds = [...new Set(rows.map((row) => row.user_id).filter((id): id is string => id !== null))];
  const users = userIds.length ? await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [];
  const emails = new Map(users.map((user) => [user.id, user.email]));
  return toListPage(rows, query.limit, (row) => ({
    id: row.id,
    action: row.action,
    userId: row.user_id,
    userEmail: row.user_id ? (emails.get(row.user_id) ?? null) : null,
    ip: row.ip,
    userAgent: row.user_agent,
    detail: row.detail,
    createdAt: row.created_at,
  }));
}
