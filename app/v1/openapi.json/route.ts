// GET /v1/openapi.json (public, no key): the OpenAPI 3.1 document of /v1, built from the routes' zod schemas
// (lib/openapi/document.ts). A static document: no database, no rate limit; browsers and proxies may keep it 5 minutes.
import { openApiDocument } from "@/lib/openapi/document";

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}

export const dynamic = "force-dynamic";
