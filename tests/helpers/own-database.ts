// A migrated database of one test file's own, on the test database's server (or a server of its own), for tests whose background
// work must be theirs alone (nothing else ticks it) and that cannot share ISOLATED_DATABASE_URL with
// webhook-delivery.http. Dropped by `drop()`; merchants are made through the same domain function.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { createMerchant } from "../../lib/merchants/create-merchant";
import { createDatabaseFromTemplate, createDatabaseIfMissing, dropDatabase } from "../../scripts/lib/embedded-postgres";
import { applyPendingMigrations } from "../../scripts/lib/prisma-cli";
import type { TestMerchant } from "./merchants";

export interface OwnDatabase {
  url: string;
  db: PrismaClient;
  createMerchant: (name?: string) => Promise<TestMerchant>;
  drop: () => Promise<void>;
}

/** `server`: any database's URL on the server to use (default the test database's; a test's own server: own-postgres.ts). */
export async function ownDatabase(suffix: string, server = process.env.DATABASE_URL!): Promise<OwnDatabase> {
  const base = new URL(server);
  const name = `${base.pathname.slice(1)}_${suffix}`;
  const adminUrl = Object.assign(new URL(base.href), { pathname: "/postgres" }).href;
  const url = Object.assign(new URL(base.href), { pathname: `/${name}` }).href;
  // On the test database's server, a copy of the run's migrated template (scripts/test.ts); on another, migrated here.
  const template = process.env.TEMPLATE_DATABASE_URL && new URL(process.env.TEMPLATE_DATABASE_URL);
  if (template && template.host === base.host) {
    await createDatabaseFromTemplate(adminUrl, name, template.pathname.slice(1));
  } else {
    await createDatabaseIfMissing(adminUrl, name);
    await applyPendingMigrations(url);
  }
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  return {
    url,
    db,
    async createMerchant(merchantName = "Own-database merchant") {
      const created = await db.$transaction((tx) => createMerchant(tx, { name: merchantName }));
      return { merchantId: created.merchantId, testKey: created.testSecretKey, liveKey: created.liveSecretKey };
    },
    async drop() {
      await db.$disconnect();
      await dropDatabase(adminUrl, name);
    },
  };
}
