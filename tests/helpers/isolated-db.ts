// The second test database (see scripts/test.ts), for test files whose servers' ticks must not pick up
// other files' work. Merchants there are made through the same domain function, on its own client.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { createMerchant } from "../../lib/merchants/create-merchant";
import type { TestMerchant } from "./merchants";

export function isolatedDatabaseUrl(): string {
  const url = process.env.ISOLATED_DATABASE_URL;
  if (!url) throw new Error("ISOLATED_DATABASE_URL is not set: run the suite with `npm test`");
  return url;
}

let client: PrismaClient | undefined;

export function isolatedDb(): PrismaClient {
  client ??= new PrismaClient({ adapter: new PrismaPg({ connectionString: isolatedDatabaseUrl() }) });
  return client;
}

export async function createIsolatedMerchant(name = "Isolated merchant"): Promise<TestMerchant> {
  const created = await isolatedDb().$transaction((tx) => createMerchant(tx, { name }));
  return { merchantId: created.merchantId, testKey: created.testSecretKey, liveKey: created.liveSecretKey };
}
