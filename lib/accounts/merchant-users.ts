// Which users belong to which merchant, in one place: the memberships (docs/dashboard.md, "Team"), a user
// in any number of merchants with one role in each. Each is an SQL fragment over Prisma's tagged SQL, so the
// callers' queries stay one statement.
import { Prisma } from "../generated/prisma/client";

/** SQL: the ids of the users of merchant `merchantId`. */
export const userIdsOfMerchant = (merchantId: string) => Prisma.sql`SELECT user_id FROM memberships WHERE merchant_id = ${merchantId}`;

/** SQL: the ids of the merchants user `userId` belongs to. */
export const merchantIdsOfUser = (userId: string) => Prisma.sql`SELECT merchant_id FROM memberships WHERE user_id = ${userId}`;
