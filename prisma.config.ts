// Prisma CLI configuration: the JavaScript schema engine over @prisma/adapter-pg, so that
// `migrate deploy/dev/diff` and `generate` work offline (no downloaded schema-engine binary).
import { createRequire } from "node:module";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Workaround for prisma/orm#27403: the JS schema engine's adapter rejects the Postgres catalog types
// `name` (oid 19) and `"char"` (oid 18) that introspection queries return. Load the very `pg` copy the
// adapter uses (this config is bundled separately, so a plain `import pg` could patch another copy)
// and make result fields of those types report as text (oid 25). CLI only; the app needs no patch.
const requireFromAdapter = createRequire(require.resolve("@prisma/adapter-pg"));
const pg = requireFromAdapter("pg");
const CATALOG_TEXT_OIDS = new Set([18, 19]);
const originalQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function patchedQuery(...args: unknown[]) {
  const result = originalQuery.apply(this, args);
  const fixFields = (res: { fields?: { dataTypeID: number }[] }) => {
    for (const field of res?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = 25;
    }
    return res;
  };
  return result && typeof result.then === "function" ? result.then(fixFields) : result;
};

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set (npm start and npm test set it for you)");
    return new PrismaPg({ connectionString });
  },
});
