// GET /docs/api: the browsable API reference, Swagger UI over GET /v1/openapi.json. Its scripts and styles
// are served from this app (./assets), never from a CDN. A plain HTML answer rather than a page of the app:
// Swagger UI brings its own styles, which the app's layout and Tailwind base would fight.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Agent Payments Service</title>
    <link rel="stylesheet" href="/docs/api/assets/swagger-ui.css" />
    <link rel="stylesheet" href="/docs/api/assets/theme.css" />
  </head>
  <body>
    <main id="api-reference"><p>Loading the API reference from <a href="/v1/openapi.json">/v1/openapi.json</a>…</p></main>
    <script src="/docs/api/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/api/assets/start.js"></script>
  </body>
</html>
`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}

export const dynamic = "force-dynamic";
