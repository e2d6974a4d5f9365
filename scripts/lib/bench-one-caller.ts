// `npm run bench`'s one-caller table (issue 38's target: an API capture at one caller within 3x GET /health's p50):
// GET /health, then POST /v1/checkouts/:id/capture of checkouts opened beforehand (the capture alone: charge on the
// test rail, capture, order, ledger posting, events, the stored idempotent answer), each call timed back to back.
import { randomUUID } from "node:crypto";
import { getHealth, resultRow, timedLoop } from "./bench-loop";
import { percentile } from "./bench-setup";

async function openCheckouts(baseUrl: string, auth: Record<string, string>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${baseUrl}/v1/checkouts`, {
      method: "POST",
      headers: { ...auth, "idempotency-key": randomUUID() },
      body: JSON.stringify({ amount: 1250, currency: "usd", description: "bench" }),
    });
    if (res.status !== 201) throw new Error(`open checkout: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** The table's lines: each way's calls/s, p50 and p99, and the capture's p50 as a multiple of /health's. */
export async function oneCallerTable(baseUrl: string, auth: Record<string, string>, seconds: number): Promise<string[]> {
  const health = await timedLoop(seconds, 1, () => getHealth(baseUrl));
  // A capture takes a few milliseconds: enough open checkouts for the loop, opened before it starts.
  const checkouts = await openCheckouts(baseUrl, auth, seconds * 400);
  const capture = await timedLoop(seconds, 1, async () => {
    const id = checkouts.pop();
    if (!id) throw new Error("out of open checkouts");
    const res = await fetch(`${baseUrl}/v1/checkouts/${id}/capture`, {
      method: "POST",
      headers: { ...auth, "idempotency-key": randomUUID() },
      body: JSON.stringify({ paymentMethod: "pm_card_visa" }),
    });
    if (res.status !== 200) throw new Error(`capture: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });
  const p50 = (times: number[]) =>
    percentile(
      [...times].sort((a, b) => a - b),
      50,
    );
  return [
    "| one caller | calls/s | p50 | p99 |",
    "|---|---:|---:|---:|",
    resultRow("GET /health", [health]),
    resultRow("POST /v1/checkouts/:id/capture (pm_card_visa; opened beforehand)", [capture]),
    `\nAPI capture p50 at one caller: ${(p50(capture.times) / p50(health.times)).toFixed(2)}x GET /health's (target: at most 3x)`,
  ];
}
