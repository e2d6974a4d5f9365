// A real local HTTP proxy whose answer to each incoming request is scripted: forward it to a target, answer
// with a canned response, drop the connection, forward and then drop the reply (the work happened but the
// client never hears back), or hang. It records every request it saw (method, path, headers, body).
import { afterAll } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyAction =
  "forward" | "drop" | "forward-then-drop" | "hang" | { status: number; headers?: Record<string, string>; body?: unknown };

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  action: ProxyAction;
  /** Time the request arrived (ms since the epoch). */
  at: number;
}

export interface ScriptedProxy {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive", "content-encoding"]);

/** `script(n, req)` decides the action for the n-th request (0-based); `target` is where "forward" goes. */
export async function startScriptedProxy(
  target: string | null,
  script: (n: number, req: SeenRequest) => ProxyAction,
): Promise<ScriptedProxy> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry: SeenRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      action: "forward",
      at: Date.now(),
    };
    entry.action = script(seen.length, entry);
    seen.push(entry);
    const action = entry.action;
    if (action === "hang") return;
    if (action === "drop") return void req.socket.destroy();
    if (typeof action === "object") {
      res.writeHead(action.status, { "content-type": "application/json", ...action.headers });
      return void res.end(action.body === undefined ? "" : JSON.stringify(action.body));
    }
    if (!target) throw new Error("scripted proxy: no target to forward to");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && typeof value === "string") headers[name] = value;
    const upstream = await fetch(`${target}${entry.path}`, { method: entry.method, headers, body: entry.body || undefined });
    const text = await upstream.text();
    if (action === "forward-then-drop") return void req.socket.destroy();
    const outHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) outHeaders[name] = value;
    });
    res.writeHead(upstream.status, outHeaders);
    res.end(text);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: `const stub = stubServices()` gives stand-in services that answer every request by
 * `answer(req)`, all closed after the file's tests.
 */
export function stubServices(): (answer: (req: SeenRequest) => ProxyAction) => Promise<ScriptedProxy> {
  const opened: ScriptedProxy[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((p) => p.close()));
  });
  return async (answer) => {
    const proxy = await startScriptedProxy(null, (_n, req) => answer(req));
    opened.push(proxy);
    return proxy;
  };
}
