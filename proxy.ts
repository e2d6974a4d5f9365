// Tells dashboard pages which URL was asked for (a layout cannot see it), so a signed-out visit can send
// the browser to /login with that page as the place to come back to. Any copy of the header sent by the
// client is replaced; the login page accepts only paths under /dashboard anyway.
import { NextResponse, type NextRequest } from "next/server";
import { REQUESTED_PATH_HEADER } from "./lib/dashboard/requested-path";

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
