// A real local HTTP receiver for webhook tests: records every delivery (raw body, headers) and answers
// with whatever `respond` says for it (a status, or "hang" to never answer).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  rawBody: string;
  headers: http.IncomingHttpHeaders;
  event: { id: string; type: string; data: any; created: number; livemode: boolean };
  receivedAt: number;
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  respond: (delivery: ReceivedDelivery, index: number) => number | "hang";
  waitFor: (predicate: (received: ReceivedDelivery[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

export async function startReceiver(respond: Receiver["respond"] = () => 200): Promise<Receiver> {
  const hanging: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: "",
    received: [],
    respond,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const delivery: ReceivedDelivery = { rawBody, headers: req.headers, event: JSON.parse(rawBody), receivedAt: Date.now() };
      const index = receiver.received.push(delivery) - 1;
      const answer = receiver.respond(delivery, index);
      if (answer === "hang") return void hanging.push(res);
      res.writeHead(answer, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

export interface SlowReceiver {
  /** Base URL: endpoints add a path each (`${url}/a0`), counted apart in `maxInFlightByPath`. */
  url: string;
  state: { received: number; answered: number; inFlight: number; maxInFlight: number; maxInFlightByPath: Map<string, number> };
  close: () => Promise<void>;
}

/** A receiver that answers 200 after `delayMs`, counting requests in flight (in all and per path) and answered. */
export async function startSlowReceiver(delayMs: number): Promise<SlowReceiver> {
  const state: SlowReceiver["state"] = { received: 0, answered: 0, inFlight: 0, maxInFlight: 0, maxInFlightByPath: new Map() };
  const byPath = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    const path = req.url ?? "/";
    const here = (byPath.get(path) ?? 0) + 1;
    byPath.set(path, here);
    state.maxInFlightByPath.set(path, Math.max(state.maxInFlightByPath.get(path) ?? 0, here));
    state.received++;
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    let open = true;
    const done = () => {
      if (!open) return;
      open = false;
      state.inFlight--;
      byPath.set(path, byPath.get(path)! - 1);
    };
    const timer = setTimeout(() => (done(), state.answered++, res.writeHead(200).end()), delayMs);
    res.on("close", () => (clearTimeout(timer), done()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
