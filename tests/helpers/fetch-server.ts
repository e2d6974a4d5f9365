// Serves a fetch-style handler ((Request) => Response, as mppx/server and mppx/nextjs route handlers are) on
// node:http on a free loopback port: a merchant's own small app inside a test.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { freePort } from "../../scripts/lib/ports";

export interface FetchServer {
  url: string;
  close(): Promise<void>;
}

export async function serveFetch(handler: (request: Request) => Promise<Response>): Promise<FetchServer> {
  const port = await freePort();
  const server: Server = createServer(async (req, res) => {
    try {
      const response = await handler(await toRequest(req, port));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function toRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body });
}
