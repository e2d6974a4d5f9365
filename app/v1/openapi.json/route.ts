// GET /v1/openapi.json (public, no key; limited per client IP like every public route): the OpenAPI 3.1
// document of /v1, built once from the routes' zod schemas (lib/openapi/document.ts).
import { api } from "@/lib/http/api";
import { openApiDocument } from "@/lib/openapi/document";

export const GET = api({ auth: "public" }, () => openApiDocument());

export const dynamic = "force-dynamic";
