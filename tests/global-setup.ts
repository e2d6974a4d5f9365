// One shared production server for the HTTP tests (each test file makes its own merchants and keys,
// so files never share state). Tests that need other settings start their own with startTestServer().
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { documentedSuccesses } from "./helpers/openapi-responses";
import { startTestServer, UNREACHABLE_LIVE_CHAIN } from "./helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where call() records each (operation, status) of /v1 it checked against docs/openapi.json. */
    openapiSeenDir: string;
  }
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/**
 * After a run of every test file: each success response docs/openapi.json documents was produced (and so
 * checked against its schema) by some HTTP test at least once. A run of some files only checks nothing here.
 */
function checkEveryDocumentedSuccessSeen(project: TestProject, seenDir: string) {
  const ran = new Set(project.vitest.state.getFiles().map((file) => file.filepath));
  if (!testFiles(import.meta.dirname).every((file) => ran.has(file))) return;
  const seen = new Set(readdirSync(seenDir).flatMap((name) => readFileSync(path.join(seenDir, name), "utf8").split("\n")));
  const unseen = documentedSuccesses().filter((key) => !seen.has(key));
  if (unseen.length === 0) return;
  console.error(`\nNo HTTP test produced these documented success responses (docs/openapi.json):\n  ${unseen.join("\n  ")}`);
  process.exitCode = 1; // an error thrown in a global teardown would not fail the run
}

export default async function setup(project: TestProject) {
  if (!process.env.DATABASE_URL) throw new Error("Run the suite with `npm test`: it creates the test database.");
  // Every dashboard test file signs merchants up from 127.0.0.1 (as playwright.config.ts does); the sign-up
  // limit itself is tested on a server of its own (dashboard-auth.http.test.ts), and so are sign-ins per IP
  // across emails (sign-in-limits.http.test.ts).
  const server = await startTestServer({
    // Every file's keys and public calls share it: the limits themselves are tested on servers of their own
    // (rate-limit.http.test.ts and others), so files that only need many calls need no server of their own.
    RATE_LIMIT_MAX: "100000",
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
    PASSWORD_RESET_IP_RATE_LIMIT_MAX: "1000",
    OAUTH_REGISTER_RATE_LIMIT_MAX: "1000",
    // A live x402 network with no node behind it (port 9 refuses): live paid resources can be made once a merchant
    // sets its payout address (tests/helpers/merchants.ts livePayable); paying them live is tests/chain's, on anvil.
    ...UNREACHABLE_LIVE_CHAIN,
  });
  project.provide("baseUrl", server.url);
  const seenDir = mkdtempSync(path.join(tmpdir(), "openapi-seen-"));
  project.provide("openapiSeenDir", seenDir);
  return async () => {
    await server.stop();
    checkEveryDocumentedSuccessSeen(project, seenDir);
    rmSync(seenDir, { recursive: true, force: true });
  };
}
