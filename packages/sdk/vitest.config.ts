// The package's own tests (`npm test` in packages/sdk): test/ against src/, no server and no build needed. The
// service's suite runs the same files (its vitest.config.ts includes packages/*/test).
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { include: ["test/**/*.test.ts"] } });
