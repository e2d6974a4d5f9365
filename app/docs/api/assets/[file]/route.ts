// The API reference page's assets (/docs/api): Swagger UI's bundle and styles from the swagger-ui-dist
// package, read once from node_modules; the few lines that start it on our document; a contrast fix.
import { readFile } from "node:fs/promises";
import path from "node:path";

const START = `window.ui = SwaggerUIBundle({
  url: "/v1/openapi.json",
  dom_id: "#api-reference",
  // Deep links would put an anchor inside each operation's toggle button (nested interactive controls).
  deepLinking: false,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
});
`;

/** Swagger UI's colours that fall short of a 4.5:1 contrast (WCAG AA), darkened. */
const THEME = `.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui a.link, .swagger-ui .link { color: #1f5fa8; text-decoration: underline; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize span { color: #1c7a4f; border-color: #1c7a4f; }
.swagger-ui .btn.authorize svg { fill: #1c7a4f; }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated { color: #5f6368; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f6fb8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1c7a4f; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #137a66; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c62828; }
.swagger-ui .info .title small { background: #545b64; }
.swagger-ui .info .title small.version-stamp { background: #4a6b00; }
`;

const FILES: Record<string, { type: string; read: () => Promise<string> }> = {
  "swagger-ui.css": { type: "text/css; charset=utf-8", read: () => fromPackage("swagger-ui.css") },
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", read: () => fromPackage("swagger-ui-bundle.js") },
  "theme.css": { type: "text/css; charset=utf-8", read: async () => THEME },
  "start.js": { type: "text/javascript; charset=utf-8", read: async () => START },
};

function fromPackage(name: string): Promise<string> {
  return readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", name), "utf8");
}

const cache = new Map<string, Promise<string>>();

export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const asset = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!cache.has(file)) cache.set(file, asset.read());
  return new Response(await cache.get(file)!, { headers: { "Content-Type": asset.type, "Cache-Control": "public, max-age=3600" } });
}

export const dynamic = "force-dynamic";
