// The raw body of a signed request to one of our protocol routes (docs/cards.md "Signed bodies"): the pipeline
// reads and parses the body before the handler runs, so a route whose agent signature may cover content-digest is
// wrapped: the body is read from a copy of the stream (under the same size limit) and kept for the verifier.
import { env } from "../env";
import { readBodyText } from "../http/read-body";

const bodies = new WeakMap<Request, Promise<string | null>>();

/** The route with its request's raw body kept for signedBodyOf (null when it could not be read). */
export function keepSignedBody<C>(route: (req: Request, ctx: C) => Promise<Response>): (req: Request, ctx: C) => Promise<Response> {
  return (req, ctx) => {
    bodies.set(req, req.body ? readBodyText(req.clone(), env.BODY_LIMIT_BYTES).catch(() => null) : Promise.resolve(""));
    return route(req, ctx);
  };
}

/** The body kept for this request; null for a route that does not keep it. */
export function signedBodyOf(req: Request): Promise<string | null> {
  return bodies.get(req) ?? Promise.resolve(null);
}
