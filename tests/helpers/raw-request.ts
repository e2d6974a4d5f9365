// One HTTP request sent exactly as given: any method token (TRACE, PROPFIND), the path's bytes unnormalised
// (`%`, `%e2%82`, `..`), any headers and body. fetch() refuses or rewrites all of these.
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  // A body is always framed by Content-Length: Node's client sends a DELETE or OPTIONS body unframed
  // otherwise, and the server then reads it as the start of a second (malformed) request.
  const headers =
    options.body === undefined ? options.headers : { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(new Error(`no answer to ${method} ${path} in time`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The error contract's shape: exactly `{ error: { code, message, details } }`. */
export function isErrorShape(text: string): boolean {
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return (
    parsed !== null &&
    typeof parsed === "object" &&
    Object.keys(parsed).join() === "error" &&
    typeof parsed.error?.code === "string" &&
    typeof parsed.error.message === "string" &&
    parsed.error.details !== null &&
    typeof parsed.error.details === "object" &&
    !Array.isArray(parsed.error.details)
  );
}

/**
 * A chunked POST that sends `bytes` bytes of `fill` and then neither ends nor closes: the answer must come
 * from a server that stops reading at its limit, since a server that buffers the whole body first never
 * answers. Rejects when no answer comes within `timeoutMs`.
 */
export function unfinishedChunkedUpload(
  base: string,
  path: string,
  headers: Record<string, string>,
  bytes: number,
  options: { fill?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname,
      port,
      method: "POST",
      path,
      headers: { ...headers, "Transfer-Encoding": "chunked" },
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to POST ${path} while its ${bytes}-byte chunked body was still open`));
    }, options.timeoutMs ?? 5_000);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    const piece = (options.fill ?? "x").repeat(4096).slice(0, 4096);
    for (let sent = 0; sent < bytes; sent += piece.length) req.write(piece);
  });
}
