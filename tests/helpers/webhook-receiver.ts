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
