import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    // Vite puts BASE_URL="/" (its asset base) into process.env; lib/env.ts reads BASE_URL as the service's
    // public address, so tests that import lib/ code need a real one.
    env: { BASE_URL: "http://localhost:3000" },
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ["default"],
  },
});
