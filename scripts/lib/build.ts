// Builds the Next.js production bundle when it is missing or older than the sources.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./prisma-cli";

const SOURCES = ["app", "lib", "components", "proxy.ts", "next.config.ts", "package-lock.json", "postcss.config.mjs"];

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

export function buildIfNeeded(log: (line: string) => void = console.log): void {
  if (!buildIsStale()) return;
  log("Building the app (next build); this takes about a minute the first time...");
  const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
}
