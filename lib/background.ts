// What a long-running server process does besides answering requests (started by instrumentation.ts).
import { env } from "./env";
import { startEventListener } from "./events/listener";

export function startBackgroundWork(): void {
  if (!env.DATABASE_URL) return;
  startEventListener();
}
