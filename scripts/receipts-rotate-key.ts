// Operator CLI: npm run receipts:rotate-key [-- --json]
// Retires the service's signing key and makes a new one (docs/receipts.md): receipts signed from now on carry the
// new kid; the retired key's public half stays at /.well-known/jwks.json for RECEIPT_KEY_RETENTION_DAYS, so the
// receipts it signed still verify (they are never signed again). Prints the new kid; --json prints one line
// { "kid", "retiredKid" } (retiredKid null when there was no key yet).
import { parseArgs } from "node:util";
import { persistentLocalSecret } from "./lib/local-secret";
import { withOperatorDatabase } from "./lib/operator-database";

const { values } = parseArgs({ options: { json: { type: "boolean" } } });
// The key that seals the new private key: the deployment's, else the one `npm start` keeps for a local install.
process.env.SECRETS_ENCRYPTION_KEY ??= persistentLocalSecret("secrets-encryption-key");

await withOperatorDatabase(async () => {
  const { transaction } = await import("../lib/db");
  const { rotateSigningKey } = await import("../lib/receipts/rotate-signing-key");
  const rotated = await transaction((tx) => rotateSigningKey(tx));
  if (values.json) console.log(JSON.stringify(rotated));
  else {
    console.log(`New receipt signing key ${rotated.kid}.`);
    if (rotated.retiredKid) console.log(`  retired ${rotated.retiredKid} (still published for the receipts it signed)`);
  }
});
