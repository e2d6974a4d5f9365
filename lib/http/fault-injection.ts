// Test instrument: with FAULT_INJECTION=1, a request's `x-test-fault: <point>` header makes the server
// fail at that named point ("<point>:exit" kills the process there, as a crash would). Off by default,
// and never honoured unless the setting is on.
import { env } from "../env";

export type FaultPoint = "after-handler" | "after-rail-charge" | "after-broadcast";

export function faultAt(req: Request | undefined, point: FaultPoint): void {
  if (!env.FAULT_INJECTION || !req) return;
  const requested = req.headers.get("x-test-fault");
  if (requested === point) throw new Error(`injected fault at ${point}`);
  if (requested === `${point}:exit`) process.exit(137);
}
