// Runs before the pages that no route handler wraps:
// - dashboard pages learn which URL was asked for (a layout cannot see it), so a signed-out visit can send
//   the browser to /login with that page as the place to come back to. Any copy of the header sent by the
//   client is replaced; the login page accepts only paths under /dashboard anyway.
// - the public pages (the hosted pay pages, the ACP order permalinks and the OAuth consent page) take a token from the client IP's
//   bucket, like every public route handler does itself (the API's token bucket and RateLimit-* headers).
// - while the database cannot be reached (lib/db-availability.ts), both answer a 503 page (lib/http/outage-page.ts).
import { NextResponse, type NextRequest } from "next/server";
import { REQUESTED_PATH_HEADER } from "./lib/dashboard/requested-path";
import { databaseReachable } from "./lib/db";
import { outagePage } from "./lib/http/outage-page";
import { limitPublicPage } from "./lib/http/public-page-limit";

export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/dashboard")) {
    if (!(await databaseReachable())) return outagePage(); // 503 rather than a page that fails to render
    const headers = new Headers(request.headers);
    headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
    return NextResponse.next({ request: { headers } });
  }
  return limitPublicPage(request);
}

// The pay forms' POST /pay/.../submit stay out of the matcher: they limit themselves, and a request that
// passes through the proxy has its body buffered first (a never-ending body must meet the form's own limit).
export const config = { matcher: ["/dashboard", "/dashboard/:path*", "/pay/((?!.*/submit$).*)", "/oauth/consent", "/acp/orders/:path*"] };
