// Operator CLI: npm run merchant:create -- --name <name> [--email <email> --password <password>] [--json]
// Prints the new merchant's id and its test and live secret keys (shown this once).
import { parseArgs } from "node:util";
import { withOperatorDatabase } from "./lib/operator-database";

const { values } = parseArgs({
  options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" }, json: { type: "boolean" } },
});
if (!values.name || (values.email && !values.password)) {
  console.error("usage: npm run merchant:create -- --name <name> [--email <email> --password <password>] [--json]");
  process.exit(2);
}

await withOperatorDatabase(async () => {
  const { transaction } = await import("../lib/db");
  const { createMerchant } = await import("../lib/merchants/create-merchant");
  const { hashPassword } = await import("../lib/crypto/password");
  // Hashed before the transaction: scrypt at N=2^17 may take seconds on a busy machine.
  const passwordHash = values.password ? await hashPassword(values.password) : undefined;
  const created = await transaction((tx) => createMerchant(tx, { name: values.name!, email: values.email, passwordHash }));
  if (values.json) console.log(JSON.stringify(created));
  else {
    console.log(`Merchant ${created.merchantId} created.`);
    console.log(`  test secret key: ${created.testSecretKey}`);
    console.log(`  live secret key: ${created.liveSecretKey}`);
    if (created.userEmail) console.log(`  dashboard login: ${created.userEmail}`);
  }
});
