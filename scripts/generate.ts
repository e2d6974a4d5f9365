// npm run prisma:generate: the Prisma client, offline and with no settings (`generate` never connects).
import { generatePrismaClient } from "./lib/prisma-cli";

await generatePrismaClient();
