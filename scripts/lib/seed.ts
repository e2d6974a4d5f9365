// The demo merchant `npm start` creates on a fresh database; its keys and login are printed once.
import pg from "pg";
import { DEMO_EMAIL } from "../../lib/merchants/demo";

export { DEMO_EMAIL };
export const DEMO_PASSWORD = "demo-password";

/** One plain query: a warm start need not load the app's Prisma client just to find the demo merchant there. */
async function demoMerchantExists(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Boolean((await client.query("SELECT 1 FROM users WHERE email = $1", [DEMO_EMAIL])).rowCount);
  } finally {
    await client.end();
  }
}

export async function seedDemoMerchant(databaseUrl: string): Promise<void> {
  if (await demoMerchantExists(databaseUrl)) return;
  process.env.DATABASE_URL = databaseUrl;
  const { transaction, closeDb } = await import("../../lib/db");
  const { createMerchant } = await import("../../lib/merchants/create-merchant");
  const { hashPassword } = await import("../../lib/crypto/password");
  // Hashed before the transaction: scrypt at N=2^17 may take seconds on a busy machine.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const created = await transaction((tx) => createMerchant(tx, { name: "Demo merchant", email: DEMO_EMAIL, passwordHash }));
  console.log("Seeded a demo merchant (shown once; keys are stored hashed):");
  console.log(`  merchant:        ${created.merchantId}`);
  console.log(`  test secret key: ${created.testSecretKey}`);
  console.log(`  dashboard login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  await closeDb();
}
