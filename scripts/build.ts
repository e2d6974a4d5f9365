// npm run build: works on a fresh `npm install` with no settings (a host's build step): the Prisma
// client is generated offline first, then `next build`. Migrations are applied at deploy or start
// time against the real database (`npm run db:migrate` with DATABASE_URL, or `npm start`).
import { build } from "./lib/build";

try {
  await build();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
