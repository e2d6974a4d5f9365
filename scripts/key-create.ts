// Operator CLI: npm run key:create -- --merchant <mer_...> --mode test|live [--permissions <resource:access,...>]
//   [--name <name>] [--json]
// Makes an API key for a merchant: restricted (rk_) with --permissions (e.g. checkouts:write,orders:read), else a
// secret key (sk_). Prints its id, the secret (shown this once) and its permissions (docs/restricted-keys.md);
// --json prints one line { "id", "secret", "permissions" }. The key's creation is in the account activity log.
import { parseArgs } from "node:util";
import { withOperatorDatabase } from "./lib/operator-database";

const USAGE =
  "usage: npm run key:create -- --merchant <mer_...> --mode test|live [--permissions checkouts:write,orders:read] [--name <name>] [--json]";

const { values } = parseArgs({
  options: {
    merchant: { type: "string" },
    mode: { type: "string" },
    permissions: { type: "string" },
    name: { type: "string" },
    json: { type: "boolean" },
  },
});
if (!values.merchant || (values.mode !== "test" && values.mode !== "live")) {
  console.error(USAGE);
  process.exit(2);
}
const { parsePermissionList } = await import("../lib/merchants/permissions");
let permissions;
try {
  permissions = values.permissions === undefined ? undefined : parsePermissionList(values.permissions);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
}

await withOperatorDatabase(async () => {
  const { transaction } = await import("../lib/db");
  const { createScopedApiKey } = await import("../lib/merchants/api-keys");
  const { DomainError } = await import("../lib/errors");
  const scope = { merchantId: values.merchant!, livemode: values.mode === "live" };
  try {
    const exists = await transaction((tx) => tx.merchant.findUnique({ where: { id: scope.merchantId }, select: { id: true } }));
    if (!exists) throw new DomainError("NOT_FOUND", `No such merchant: ${scope.merchantId}`);
    const key = await transaction((tx) => createScopedApiKey(tx, scope, { name: values.name, permissions }, { via: "cli" }));
    if (values.json) console.log(JSON.stringify({ id: key.id, secret: key.secret, permissions: key.permissions }));
    else {
      console.log(`${key.type === "restricted" ? "Restricted" : "Secret"} ${values.mode} key ${key.id} created for ${scope.merchantId}.`);
      console.log(`  secret (shown this once): ${key.secret}`);
      if (key.permissions) {
        const granted = Object.entries(key.permissions).filter(([, access]) => access !== "none");
        console.log(`  permissions: ${granted.map(([resource, access]) => `${resource}:${access}`).join(", ")}`);
      }
    }
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
});
