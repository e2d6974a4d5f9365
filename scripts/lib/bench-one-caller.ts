// `npm run bench`'s one-caller table (issue 38's target: an API capture at one caller within 3x GET /health's p50):
// GET /health, then POST /v1/checkouts/:id/capture of checkouts opened beforehand (the capture alone: charge on the
// test rail, capture, order, ledger posting, events, the stored idempotent answer), each call timed back to back.
// With the spt cases, also POST /v1/shared_payment_tokens/:id/redeem of tokens minted beforehand (the redemption
// alone), once with tokens naming no agent and once with tokens naming a spending agent with a policy: one caller,
// so no other charge waits on the agent's budget row, and the difference is the check's own cost.
import { randomUUID } from "node:crypto";
import { getHealth, resultRow, timedLoop } from "./bench-loop";
import { percentile } from "./bench-setup";

/** Who the spt rows' tokens are minted by (the payer's headers), for whom, and the spending agent of the policy row. */
export interface SptSeller {
  payerAuth: Record<string, string>;
  payeeMerchantId: string;
  agentId: string;
}

/** The calls of a one-caller row: enough for `seconds` at a few milliseconds each, made before the timed loop. */
const callsFor = (seconds: number) => seconds * 400;

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

/** Tokens minted by the payer for the payee (naming `agentId` if given), four callers at a time. */
async function mintTokens(baseUrl: string, spt: SptSeller, agentId: string | undefined, count: number): Promise<string[]> {
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (ids.length < count) {
        const res = await fetch(`${baseUrl}/v1/shared_payment_tokens`, {
          method: "POST",
          headers: { ...spt.payerAuth, "idempotency-key": randomUUID() },
          body: JSON.stringify({
            paymentMethod: "pm_card_visa",
            maxAmount: 1250,
            currency: "usd",
            merchantId: spt.payeeMerchantId,
            spendingAgentId: agentId,
          }),
        });
        if (res.status !== 201) throw new Error(`mint token: ${res.status} ${await res.text()}`);
        ids.push(((await res.json()) as { id: string }).id);
      }
    }),
  );
  return ids;
}

/** One call at a time over ids prepared beforehand, each used once; anything but `status` stops the bench. */
function oneCallerLoop(seconds: number, ids: string[], call: (id: string) => Promise<Response>, status: number, what: string) {
  return timedLoop(seconds, 1, async () => {
    const id = ids.pop();
    if (!id) throw new Error(`${what}: out of prepared ids`);
    const res = await call(id);
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });
}

const post = (url: string, auth: Record<string, string>, body: unknown) =>
  fetch(url, { method: "POST", headers: { ...auth, "idempotency-key": randomUUID() }, body: JSON.stringify(body) });

const p50 = (times: number[]) =>
  percentile(
    [...times].sort((a, b) => a - b),
    50,
  );

/** Captures whose database round trips are counted (`trips`), one at a time after the timed loop. */
const TRIPS_SAMPLE = 100;

/**
 * The table's lines: each way's calls/s, p50 and p99, and each p50 as a multiple of /health's. `capture`: the
 * capture row; `spt`: the two redemption rows (no agent, then the agent's policy checked); `trips`: the server's
 * database round trips so far (BENCH_TRIPS), to count those of one capture.
 */
export async function oneCallerTable(
  baseUrl: string,
  auth: Record<string, string>,
  seconds: number,
  ways: { capture: boolean; spt?: SptSeller; trips?: () => number } = { capture: true },
): Promise<string[]> {
  const health = await timedLoop(seconds, 1, () => getHealth(baseUrl));
  const lines = ["| one caller | calls/s | p50 | p99 |", "|---|---:|---:|---:|", resultRow("GET /health", [health])];
  const ratios: string[] = [];
  const ratio = (label: string, times: number[]) =>
    `${label} p50 at one caller: ${(p50(times) / p50(health.times)).toFixed(2)}x GET /health's`;
  if (ways.capture) {
    // A capture takes a few milliseconds: enough open checkouts for the loop, opened before it starts.
    const checkouts = await openCheckouts(baseUrl, auth, callsFor(seconds));
    const captureOne = (id: string) => post(`${baseUrl}/v1/checkouts/${id}/capture`, auth, { paymentMethod: "pm_card_visa" });
    const capture = await oneCallerLoop(seconds, checkouts, captureOne, 200, "capture");
    lines.push(resultRow("POST /v1/checkouts/:id/capture (pm_card_visa; opened beforehand)", [capture]));
    ratios.push(`${ratio("API capture", capture.times)} (target: at most 3x)`);
    if (ways.trips)
      ratios.push(`API capture: ${(await tripsPerCall(ways.trips, baseUrl, auth, captureOne)).toFixed(2)} DB round trips per call`);
  }
  if (ways.spt) {
    const redeem = (id: string) => post(`${baseUrl}/v1/shared_payment_tokens/${id}/redeem`, auth, { amount: 1250, currency: "usd" });
    const plainTokens = await mintTokens(baseUrl, ways.spt, undefined, callsFor(seconds));
    const plain = await oneCallerLoop(seconds, plainTokens, redeem, 201, "redeem");
    const agentTokens = await mintTokens(baseUrl, ways.spt, ways.spt.agentId, callsFor(seconds));
    const checked = await oneCallerLoop(seconds, agentTokens, redeem, 201, "redeem (spending agent)");
    lines.push(resultRow("POST /v1/shared_payment_tokens/:id/redeem (minted beforehand; no agent: no policy check)", [plain]));
    lines.push(
      resultRow("POST /v1/shared_payment_tokens/:id/redeem (minted beforehand; naming a spending agent: policy checked)", [checked]),
    );
    ratios.push(ratio("Token redemption without the policy check", plain.times));
    ratios.push(
      `${ratio("Token redemption with the policy check", checked.times)}; the check's cost at one caller: ` +
        `${(p50(checked.times) - p50(plain.times)).toFixed(2)} ms at p50`,
    );
  }
  return [...lines, "", ...ratios];
}

/** The database round trips of one capture: TRIPS_SAMPLE checkouts opened, then captured one at a time and counted. */
async function tripsPerCall(
  trips: () => number,
  baseUrl: string,
  auth: Record<string, string>,
  call: (id: string) => Promise<Response>,
): Promise<number> {
  const ids = await openCheckouts(baseUrl, auth, TRIPS_SAMPLE);
  const before = trips();
  for (const id of ids) {
    const res = await call(id);
    if (res.status !== 200) throw new Error(`capture: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return (trips() - before) / TRIPS_SAMPLE;
}
