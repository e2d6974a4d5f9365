// The headers of every answer of /x402/r/:id and /mpp/r/:id (next.config.ts), set again on the paid content
// itself (paid-content.ts). The content is the merchant's (a forwarded answer may be HTML or script): the CSP
// `sandbox` directive gives it an opaque origin in a browser (no script, no cookies, no same-origin reach into the
// dashboard), `frame-ancestors 'none'` keeps the site-wide anti-framing, and nosniff keeps its Content-Type.
export const PAID_CONTENT_HEADERS = {
  "Content-Security-Policy": "sandbox; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
} as const;
