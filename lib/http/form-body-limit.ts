// The public form endpoints outside api() (the pay forms, next-auth's sign-in, sign-up and sign-out) take
// small forms. They read their bodies through the API's streaming limit (read-body.ts): a chunked upload
// is cut off at the limit instead of being buffered whole, whatever Content-Length says or omits.
import { NextRequest } from "next/server";
import { createId } from "../ids";
import { toErrorResult } from "./errors";
import { readBodyText } from "./read-body";

/** Largest form body: a card form or a sign-up is well under 1 KiB. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/** The body as text, or null when it is larger than the limit, cut short, or not UTF-8. */
export function readFormText(req: Request): Promise<string | null> {
  return readBodyText(req, FORM_BODY_LIMIT_BYTES).catch(() => null);
}

/**
 * A route handler (next-auth's) that is handed its request with the body already read under the limit;
 * past it the answer is 400 VALIDATION_ERROR in the error contract's shape, and the handler never runs.
 */
export function withFormBodyLimit<C>(handler: (req: NextRequest, context: C) => Promise<Response>) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    let text: string;
    try {
      text = await readBodyText(req, FORM_BODY_LIMIT_BYTES);
    } catch (err) {
      const { status, body } = toErrorResult(err, createId("request"));
      return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
    }
    return handler(new NextRequest(req.url, { method: req.method, headers: req.headers, body: text }), context);
  };
}
