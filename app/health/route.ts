// Liveness probe: the process is up. Never rate limited, touches nothing.
import { jsonAnswer } from "@/lib/http/small-answer";

export const dynamic = "force-dynamic";

export function GET() {
  return jsonAnswer({ status: "ok" });
}
