// Builds the Next.js production bundle when it is missing or older than the sources.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { runChild } from "./child";
import { generatePrismaClientIfMissing, ROOT } from "./prisma-cli";

const SOURCES = ["app", "lib", "packages/sdk/src", "components", "proxy.ts", "next.config.ts", "package-lock.json", "postcss.config.mjs"];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(ROOT, source)) > builtAt);
}

/** `npm run build`: the Prisma client (generated offline, no settings needed), then `next build`. */
export async function build(options: { quiet?: boolean } = {}): Promise<void> {
  await generatePrismaClientIfMissing();
  const { code, output } = await runChild(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    capture: options.quiet,
  });
  if (code !== 0) throw new Error(`next build failed${options.quiet ? `:\n${output}` : ""}`);
}

export async function buildIfNeeded(log: (line: string) => void = console.log): Promise<void> {
  if (!buildIsStale()) return;
  log("Building the app (next build); this takes about a minute the first time...");
  await build({ quiet: true });
}
