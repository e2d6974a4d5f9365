// The client address used for per-IP rate limits. X-Forwarded-For is trusted only as far as
// TRUSTED_PROXY_HOPS says, so a client cannot pick its own bucket by sending the header itself.
import { env } from "../env";

export function clientIp(req: Request): string {
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  // `next start` appends the socket peer as the last entry; each trusted proxy adds one before it.
  const index = forwarded.length - 1 - env.TRUSTED_PROXY_HOPS;
  return forwarded[index] ?? forwarded[0] ?? req.headers.get("x-real-ip") ?? "unknown";
}
