// GET /v1/openapi.json (public, no key; limited per client IP like every public route): the OpenAPI 3.1
// document of /v1 as `npm run openapi` generated it from the routes' zod schemas (lib/openapi/document.ts)
// and a unit test keeps it current. It is served as built, not converted per process: in the running app a
// schema module can be loaded more than once (one copy per bundle), and zod refuses to convert two schemas
// that share a component id together.
import document from "@/docs/openapi.json";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

const body = JSON.stringify(document);

export const GET = api(
  operation.GET,
  () => new Response(body, { headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" } }),
);

export const dynamic = "force-dynamic";
