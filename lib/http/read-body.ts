// Reads a request body under a size limit and parses it as JSON. Bad or oversized input is a 400, never a 500.
import { ValidationError } from "../errors";

/** A body read as text (readBodyText) parsed as JSON; an empty body is {}. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError("The request body is not valid JSON.", [{ path: "", message: "malformed JSON" }]);
  }
  if (nestingDepth(parsed) > MAX_DEPTH) {
    throw new ValidationError(`The request body is nested deeper than ${MAX_DEPTH} levels.`, [{ path: "", message: "nested too deeply" }]);
  }
  return parsed;
}

/** No request of ours nests this deep; the limit keeps every later recursive walk safe. */
const MAX_DEPTH = 32;

/** Depth of arrays and objects, walked without recursion (a hostile body cannot overflow the stack). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** `details.reason` of a body that could not be read as text at all (it ended early, or is not UTF-8). */
export const UNREADABLE_BODY = "unreadable_body";

/** The raw body text (what a signature covers), refused when larger than the limit. */
export async function readBodyText(req: Request, limitBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The only way reading fails is the client going away mid-body: its problem, not a server error.
      throw new ValidationError(
        "The request body ended early: the client closed the connection.",
        [{ path: "", message: "incomplete body" }],
        {
          reason: UNREADABLE_BODY,
        },
      );
    });
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ValidationError("The request body is not valid UTF-8.", [{ path: "", message: "invalid UTF-8" }], {
      reason: UNREADABLE_BODY,
    });
  }
}

/** A body past the route's limit: a VALIDATION_ERROR, which a protocol path may answer as 413 instead. */
export class BodyTooLargeError extends ValidationError {
  constructor(readonly limitBytes: number) {
    super(`The request body exceeds ${limitBytes} bytes.`, [{ path: "", message: `body larger than ${limitBytes} bytes` }], {
      reason: "body_too_large",
    });
  }
}
