// Raw JSON-RPC POSTs to /mcp, sent from a loopback address of the caller's choosing (127.0.x.y): each such
// address is a client IP of its own to the server, with its own per-IP bucket that no other test file shares.
import http from "node:http";

export interface McpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (the text when it is not JSON). */
  body: any;
}

/** A fresh loopback address (127.0.x.y, x and y in 2..251) to send from. */
export function loopbackAddress(): string {
  const byte = () => Math.floor(Math.random() * 250) + 2;
  return `127.0.${byte()}.${byte()}`;
}

/** A `tools/call` JSON-RPC request. */
export function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/**
 * POSTs `message` (JSON-encoded unless a string) to `<base>/mcp` with the Bearer `key`, from the local address
 * `from`. `chunkedBytes`: instead, a chunked body of that many bytes that never ends (only a server that stops
 * reading at its limit can answer it).
 */
export function postMcp(
  base: string,
  message: unknown,
  options: { key: string; from: string; chunkedBytes?: number; timeoutMs?: number },
): Promise<McpAnswer> {
  const body = typeof message === "string" ? message : JSON.stringify(message);
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.key}`,
    Accept: "application/json, text/event-stream",
    "Content-Type": "application/json",
  };
  if (options.chunkedBytes === undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/mcp`, { method: "POST", headers, localAddress: options.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        req.destroy();
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
      res.on("error", reject);
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error("no answer from /mcp in time")));
    req.on("error", reject);
    if (options.chunkedBytes === undefined) return void req.end(body);
    const piece = " ".repeat(4096);
    for (let sent = 0; sent < options.chunkedBytes; sent += piece.length) req.write(piece);
  });
}
