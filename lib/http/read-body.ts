// Reads a request body as JSON under a size limit. Bad or oversized input is a 400, never a 500.
import { ValidationError } from "../errors";

export async function readJsonBody(req: Request, limitBytes: number): Promise<unknown> {
  const text = await readBodyText(req, limitBytes);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError("The request body is not valid JSON.", [{ path: "", message: "malformed JSON" }]);
  }
}

/** The raw body text (what a signature covers), refused when larger than the limit. */
export async function readBodyText(req: Request, limitBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw tooLarge(limitBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ValidationError("The request body is not valid UTF-8.", [{ path: "", message: "invalid UTF-8" }]);
  }
}

function tooLarge(limitBytes: number): ValidationError {
  return new ValidationError(`The request body exceeds ${limitBytes} bytes.`, [
    { path: "", message: `body larger than ${limitBytes} bytes` },
  ]);
}
