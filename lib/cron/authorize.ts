// The cron route's credential: `Authorization: Bearer <CRON_SECRET>`, compared in constant time.
// With no CRON_SECRET configured, nothing is authorized.
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "../env";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function isCronAuthorized(req: Request): boolean {
  const secret = env.CRON_SECRET;
  if (!secret) return false;
  const header = req.headers.get("authorization") ?? "";
  const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  return timingSafeEqual(digest(presented), digest(secret));
}
