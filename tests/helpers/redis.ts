// Redis for the tests: TEST_REDIS_URL, else the machine's default. In CI (CI=true) Redis is required;
// elsewhere the Redis cases are skipped with a notice when no server answers.
import { execSync } from "node:child_process";

let cached: string | null | undefined;

export function redisUrlForTests(): string | null {
  if (cached !== undefined) return cached;
  const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const { hostname, port } = new URL(url);
  let reachable = false;
  try {
    // A synchronous probe, so that test tables can be built at collection time.
    execSync(
      `node -e "const s=require('net').connect(${Number(port || 6379)},'${hostname}');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1))"`,
      { timeout: 3000 },
    );
    reachable = true;
  } catch {
    reachable = false;
  }
  if (!reachable && process.env.CI) throw new Error(`Redis is required in CI but ${url} does not answer`);
  if (!reachable) console.warn(`[tests] no Redis at ${url}: the Redis cases are skipped`);
  cached = reachable ? url : null;
  return cached;
}
