// Which users belong to which merchant, in one place. Today a user belongs to the merchant of
// `users.merchant_id`; once memberships exist (a user in several merchants), only these two fragments
// change. Each is an SQL fragment over Prisma's tagged SQL, so the callers' queries stay one statement.
import { Prisma } from "../generated/prisma/client";

/** SQL: the ids of the users of merchant `merchantId`. */
export const userIdsOfMerchant = (merchantId: string) => Prisma.sql`SELECT id FROM users WHERE merchant_id = ${merchantId}`;

/** SQL: the ids of the merchants user `userId` belongs to. */
export const merchantIdsOfUser = (userId: string) => Prisma.sql`SELECT merchant_id FROM users WHERE id = ${userId}`;
