// npm run openapi: writes the OpenAPI document (lib/openapi/document.ts), built from the operations beside the
// routes (scripts/lib/route-operations.ts), to docs/openapi.json. Run it after changing a route, a request schema
// or a response schema, and commit the file: tests/unit/openapi-document.test.ts fails while the committed file
// differs from the generated one.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../lib/openapi/document";
import { routeOperations } from "./lib/route-operations";

const file = path.join(import.meta.dirname, "..", "docs", "openapi.json");
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(await routeOperations()), null, 2)}\n`);
console.log(`Wrote ${path.relative(process.cwd(), file)}`);
