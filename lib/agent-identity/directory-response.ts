// Public key directories answer with Web Bot Auth's media type and a cache lifetime (docs/cards.md "Directories").
// They are not signed: the draft's directory signature is made by each listed key, and the keys listed are the
// agents' (the service holds none of their private keys); a signature by the service's own ES256 receipt key, which
// the directory does not list, would make draft verifiers (ours included) refuse the directory. Possession of each
// key is proved once instead, at its registration (proof-of-possession.ts).
import { DIRECTORY_MEDIA_TYPE } from "./agent-keys";

type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>;

export function asDirectory(handler: Handler, mediaType = DIRECTORY_MEDIA_TYPE): Handler {
  return async (req, ctx) => {
    const res = await handler(req, ctx);
    if (res.status === 200) {
      res.headers.set("Content-Type", mediaType);
      res.headers.set("Cache-Control", "max-age=300");
    }
    return res;
  };
}
