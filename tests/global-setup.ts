// One shared production server for the HTTP tests (each test file makes its own merchants and keys,
// so files never share state). Tests that need other settings start their own with startTestServer().
import type { TestProject } from "vitest/node";
import { startTestServer } from "./helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (!process.env.DATABASE_URL) throw new Error("Run the suite with `npm test`: it creates the test database.");
  // Every dashboard test file signs merchants up from 127.0.0.1 (as playwright.config.ts does); the sign-up
  // limit itself is tested on a server of its own (dashboard-auth.http.test.ts), and so are sign-ins per IP
  // across emails (sign-in-limits.http.test.ts).
  const server = await startTestServer({
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
    PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
  });
  project.provide("baseUrl", server.url);
  return () => server.stop();
}
