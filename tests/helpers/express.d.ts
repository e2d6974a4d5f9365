// express 5 ships no types and @types/express is not installed: the x402 interoperability test uses only
// express() / use / get / listen (the @x402/express middleware brings its own types).
declare module "express" {
  import type { Server } from "node:http";
  interface Response {
    json(body: unknown): void;
  }
  interface App {
    use(handler: unknown): App;
    get(path: string, handler: (req: unknown, res: Response) => void): App;
    listen(port: number, host: string, callback: () => void): Server;
  }
  export default function express(): App;
}
