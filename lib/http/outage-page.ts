// The pages' answer to a database outage (proxy.ts): the dashboard while the database's breaker is open, and the
// public pages whose per-IP limit could not reach it. A plain 503 with Retry-After, instead of a page that
// fails to render (500); the page reloads by itself once the database is back.
import { NextResponse } from "next/server";
import { DATABASE_RETRY_AFTER_SECONDS } from "../db-availability";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Temporarily unavailable</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="5">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#0f172a}</style></head>
<body><h1>Temporarily unavailable</h1>
<p>The service cannot reach its database at the moment. Nothing was lost; this page tries again by itself in a few seconds.</p>
</body></html>
`;

export function outagePage(): NextResponse {
  return new NextResponse(PAGE, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
    },
  });
}
