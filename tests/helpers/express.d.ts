// express 5 ships no types and @types/express is not installed: the tests use only express() / use / get / listen
// and express.raw (the x402 interoperability test; the SDK's verifyAgentRequest in an Express app), and the
// @x402/express middleware brings its own types.
declare module "express" {
  import type { IncomingMessage, Server, ServerResponse } from "node:http";
  interface Response extends ServerResponse {
    json(body: unknown): void;
  }
  interface Request extends IncomingMessage {
    /** What a body parser left: express.raw()'s Buffer. */
    body?: unknown;
  }
  interface App {
    use(handler: unknown): App;
    get(path: string, handler: (req: unknown, res: Response) => void): App;
    listen(port: number, host: string, callback: () => void): Server;
  }
  function express(): App;
  namespace express {
    /** The raw body as a Buffer in req.body (body-parser's raw). */
    function raw(options?: { type?: string | ((req: IncomingMessage) => boolean); limit?: string }): unknown;
  }
  export type { Request, Response };
  export default express;
}
