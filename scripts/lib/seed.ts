// The demo merchant `npm start` creates on a fresh database; its keys and login are printed once.
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password";

export async function seedDemoMerchant(databaseUrl: string): Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  const { getDb, transaction, closeDb } = await import("../../lib/db");
  const { createMerchant } = await import("../../lib/merchants/create-merchant");
  const existing = await getDb().user.findUnique({ where: { email: DEMO_EMAIL } });
  if (existing) return;
  const created = await transaction((tx) => createMerchant(tx, { name: "Demo merchant", email: DEMO_EMAIL, password: DEMO_PASSWORD }));
  console.log("Seeded a demo merchant (shown once; keys are stored hashed):");
  console.log(`  merchant:        ${created.merchantId}`);
  console.log(`  test secret key: ${created.testSecretKey}`);
  console.log(`  dashboard login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  await closeDb();
}
