// Per-IP limit of the public pages (GET /pay/:id, /pay/paywall, /oauth/consent), applied by proxy.ts.
// Route handlers under those paths (the pay forms' POST .../submit, which proxy.ts's matcher leaves out)
// take their own token, so only page requests are counted here: one token per page view.
import { NextResponse } from "next/server";
import { isDatabaseUnavailable } from "../db-availability";
import { RateLimitedError } from "../errors";
import { outagePage } from "./outage-page";
import { limitByClientIp } from "./rate-limit-step";

const PAGE_METHODS = new Set(["GET", "HEAD"]);

export async function limitPublicPage(request: Request): Promise<NextResponse> {
  if (!PAGE_METHODS.has(request.method)) return NextResponse.next();
  const headers = new Headers();
  try {
    await limitByClientIp(request, headers);
  } catch (err) {
    if (isDatabaseUnavailable(err)) return outagePage();
    if (!(err instanceof RateLimitedError)) throw err;
    headers.set("Content-Type", "text/plain; charset=utf-8");
    headers.set("Cache-Control", "no-store");
    return new NextResponse("Too many requests. Please wait a moment and try again.\n", { status: 429, headers });
  }
  return NextResponse.next({ headers });
}
