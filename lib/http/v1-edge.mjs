// Under /v1 every answer that is not a success is JSON in the error contract, `{ error: { code, message,
// details } }`. Route handlers made with api() (lib/http/api.ts) and the catch-all app/v1/[...path] answer so
// themselves; this covers what Next.js answers on its own, before or around the route handlers, at the one
// place every request passes (server.mjs, which is plain Node: hence plain JavaScript here).
//
// - A path that cannot be percent-decoded (`/v1/checkouts/%/cancel`, `%e2%82`): Next fails to decode the
//   route parameters and answers a bare 500. No object has such an id: 404 NOT_FOUND, before Next.
// - A method Next's route handlers do not know (TRACE makes Next throw, PROPFIND is a bare 400): 404
//   NOT_FOUND "Unrecognized request URL (METHOD path).", as Stripe answers, before Next.
// - A method a route does not export (GET /v1/paywall/redemptions): Next's empty 405 becomes that same 404.
//   So does anything else Next renders itself under /v1 (its HTML 404 page for /v1, its 308 for a trailing
//   or doubled slash): any answer of 300 or more (304 aside) that is not JSON is replaced by the contract's.
// - A request Node's parser refuses (a raw non-ASCII byte in the request line, headers over the limit):
//   Node's bare 400/431 carries the contract's body too (answerClientError; the path is unknown there).

const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The path of a request target (origin-form or absolute-form), without its query. */
function pathOf(target) {
  if (target.startsWith("/")) return target.split(/[?#]/, 1)[0];
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}

function decodable(path) {
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function errorAnswer(status, code, message) {
  return { status, body: JSON.stringify({ error: { code, message, details: {} } }) };
}

function unrecognized(method, path) {
  return errorAnswer(404, "NOT_FOUND", `Unrecognized request URL (${method} ${path}).`);
}

/** The contract's answer in place of a non-JSON one Next made with this status. */
function replacementFor(status, method, path) {
  if (status < 400 || status === 404 || status === 405 || status === 501) return unrecognized(method, path);
  if (status < 500) return errorAnswer(400, "VALIDATION_ERROR", `The request could not be read (${method} ${path}).`);
  return errorAnswer(500, "INVARIANT_VIOLATION", "An internal error occurred; report it with the request id.");
}

function send(res, answer) {
  res.writeHead(answer.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(answer.body),
    "Cache-Control": "no-store",
  });
  res.end(answer.body);
}

/**
 * For a request under /v1: answers it here (returns true) when Next would answer outside the contract
 * before reaching a route, else makes sure whatever non-JSON error Next writes is replaced by the
 * contract's (returns false: hand the request to Next).
 */
export function guardV1(req, res) {
  const path = pathOf(req.url ?? "/");
  if (path !== "/v1" && !path.startsWith("/v1/")) return false;
  const method = req.method ?? "GET";
  if (!ROUTE_METHODS.has(method) || !decodable(path)) {
    req.resume(); // the body is not wanted; let it drain so the connection can be reused
    send(res, unrecognized(method, path));
    return true;
  }
  replaceNonJsonErrors(req, res, method, path);
  return false;
}

/**
 * Decides at the first byte (headers or body) whether Next's answer is outside the contract; if so its
 * headers and body are dropped and the contract's sent instead. Every way Node sends a response head
 * goes through res.writeHead (an implicit head calls it too), and every body through write or end.
 */
function replaceNonJsonErrors(req, res, method, path) {
  const { writeHead, write, end } = res;
  let answer; // undefined: not decided yet; null: Next's answer goes out as it is
  const decide = (status = res.statusCode) => {
    if (answer !== undefined || res.headersSent) return answer ?? null;
    const contentType = String(res.getHeader("content-type") ?? "");
    answer = status >= 300 && status !== 304 && !contentType.includes("application/json") ? replacementFor(status, method, path) : null;
    if (answer) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      res.statusCode = answer.status;
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Content-Length", Buffer.byteLength(answer.body));
      res.setHeader("Cache-Control", "no-store");
    }
    return answer;
  };
  res.writeHead = function (status, ...rest) {
    const replaced = decide(typeof status === "number" ? status : undefined);
    return replaced ? writeHead.call(this, replaced.status) : writeHead.call(this, status, ...rest);
  };
  res.write = function (chunk, encoding, callback) {
    if (!decide()) return write.call(this, chunk, encoding, callback);
    const done = typeof encoding === "function" ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  };
  res.end = function (chunk, encoding, callback) {
    const replaced = decide();
    if (!replaced) return end.call(this, chunk, encoding, callback);
    const done = [chunk, encoding, callback].find((arg) => typeof arg === "function");
    return end.call(this, replaced.body, done);
  };
}

/** Node's own answers to a request it cannot parse (as its default clientError handler), in the contract. */
const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "The request headers are too large."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large", "The request's chunk extensions are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "The request took too long to arrive."],
};

/** server.on("clientError"): like Node's default (answer only on a fresh socket, then close), with a JSON body. */
export function answerClientError(err, socket) {
  if (err.code !== "ECONNRESET" && socket.writable && socket.bytesWritten === 0) {
    const [status, reason, message] = CLIENT_ERRORS[err.code] ?? [400, "Bad Request", "The request is not valid HTTP."];
    // A HEAD request's answer has no body (its first bytes say what it was, when the parser got that far).
    const head = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString("latin1") === "HEAD ";
    const body = head ? "" : JSON.stringify({ error: { code: "VALIDATION_ERROR", message, details: {} } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  socket.destroy(err);
}
