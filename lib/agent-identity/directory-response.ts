// Public key directories answer with Web Bot Auth's media type and a cache lifetime (docs/cards.md "Directories").
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
