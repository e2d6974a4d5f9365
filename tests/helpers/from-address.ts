// Requests from a loopback address of a test's own. Every server of a run shares one rate-limit bucket table,
// and other files call public paths from 127.0.0.1 (their takes refill that bucket at their own, larger, rate):
// a test that counts a per-IP limit exactly sends from an address nobody else uses.
import { request } from "node:http";

/** A random address in 127.0.0.0/8 other than 127.0.0.1 (Linux answers the whole block on loopback). */
export const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 2}.${Math.floor(Math.random() * 250) + 2}`;

/** The status of a GET sent from the given local (loopback) address. */
export function statusFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}
