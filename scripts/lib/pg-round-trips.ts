// A TCP proxy in front of PostgreSQL that counts the round trips its clients make: every simple Query
// ('Q') and every extended-protocol Sync ('S') is one trip to the server and back. Benchmarks point a
// server's DATABASE_URL at it to count what one request costs in database round trips.
import net from "node:net";

export interface RoundTripCounter {
  /** DATABASE_URL with host and port replaced by the proxy's. */
  url: string;
  count: () => number;
  close: () => Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export async function countRoundTrips(databaseUrl: string): Promise<RoundTripCounter> {
  const target = new URL(databaseUrl);
  let trips = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buffered = Buffer.alloc(0);
    let startup = true;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      // Walk whole frontend messages: startup ones are length-prefixed, the rest type byte + length.
      for (;;) {
        if (startup) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          buffered = buffered.subarray(length);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST) startup = false;
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) break;
        const type = String.fromCharCode(buffered[0]);
        if (type === "Q" || type === "S") trips++;
        buffered = buffered.subarray(1 + length);
      }
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.href,
    count: () => trips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
