// Vitest exports Vite's BASE_URL ("/") into process.env; the service's own BASE_URL setting is an
// absolute address, so drop Vite's before any module (or any process a test spawns) reads it.
if (process.env.BASE_URL === "/") delete process.env.BASE_URL;
