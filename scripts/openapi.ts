// npm run openapi: writes the OpenAPI document of /v1 (lib/openapi/document.ts) to docs/openapi.json.
// Run it after changing a route, a request schema or a response schema, and commit the file:
// tests/unit/openapi-document.test.ts fails while the committed file differs from the generated one.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../lib/openapi/document";

const file = path.join(import.meta.dirname, "..", "docs", "openapi.json");
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`Wrote ${path.relative(process.cwd(), file)}`);
