// A2A SubscribeToTask takes a slot among its key's open streams (docs/a2a.md "Streaming", lib/a2a/subscription-lease.ts):
// event streams and subscriptions count together against EVENT_STREAM_MAX_PER_KEY (2 on this test's server), one more
// is 429 too_many_streams in each binding's error shape, and a subscription gives its slot back when the client leaves
// or when it could not start. The REAL @a2a-js/sdk client holds the subscriptions.
import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, agentBase, send, text, userMessage, X402_EXT } from "../helpers/a2a";
import { openStream } from "../helpers/event-stream";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

let server: ServerProcess;
let seller: TestMerchant;
let buyer: TestMerchant;
let task: Task;

beforeAll(async () => {
  [server, seller, buyer] = await Promise.all([
    startTestServer({ EVENT_STREAM_MAX_PER_KEY: "2" }),
    createTestMerchant("A2A cap seller"),
    createTestMerchant("A2A cap buyer"),
  ]);
  const hat = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Cap", unitAmount: 30, currency: "usd" } })).body;
  task = await send(await a2aClient(seller.merchantId, buyer.testKey, server.url), userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
}, 120_000);
afterAll(() => server?.stop());

const headers = () => ({ Authorization: `Bearer ${buyer.testKey}`, "A2A-Version": "1.0" });

function subscribeRpc(id: string, signal?: AbortSignal) {
  return fetch(agentBase(seller.merchantId, server.url), {
    method: "POST",
    signal,
    headers: { ...headers(), "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "SubscribeToTask", params: { id } }),
  });
}

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("A2A subscriptions share the key's open-stream cap", () => {
  it("two held open, the third is 429 in JSON-RPC, REST and the event stream; a left or failed subscription frees its slot", async () => {
    // One subscription by the stock client, one raw (its connection is the test's to close).
    const client = await a2aClient(seller.merchantId, buyer.testKey, server.url);
    const stock = client.resubscribeTask({ tenant: "", id: task.id });
    expect(((await stock.next()).value as StreamResponse).payload?.$case).toBe("task");
    const leaving = new AbortController();
    const raw = await subscribeRpc(task.id, leaving.signal);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toContain("text/event-stream");

    const rpc = await subscribeRpc(task.id);
    expect(rpc.status).toBe(429);
    expect(Number(rpc.headers.get("retry-after"))).toBeGreaterThan(0);
    const rpcBody = await rpc.json();
    expect(rpcBody.error).toMatchObject({ code: -32600, data: { reason: "too_many_streams", scope: "api_key", limit: 2 } });
    expect(rpcBody.error.message).toContain("A2A task subscriptions");

    const rest = await fetch(`${agentBase(seller.merchantId, server.url)}/tasks/${task.id}:subscribe`, { headers: headers() });
    expect(rest.status).toBe(429);
    expect((await rest.json()).error).toMatchObject({
      code: 429,
      status: "RESOURCE_EXHAUSTED",
      details: [{ reason: "too_many_streams", scope: "api_key", limit: 2 }],
    });

    const events = await openStream(server.url, buyer.testKey);
    expect(events.status).toBe(429);
    events.close();
    // Another key of the same merchant (the seller's) is not limited by the buyer's streams.
    const sellers = await openStream(server.url, seller.testKey);
    expect(sellers.status).toBe(200);
    sellers.close();

    // The raw subscriber leaves: its slot comes back (the server ends the subscription within a poll).
    leaving.abort();
    await until(async () => {
      const probe = new AbortController();
      const r = await subscribeRpc(task.id, probe.signal);
      probe.abort();
      return r.status === 200;
    }, "the left subscription's slot");
    // That probe left too; once its slot is back, subscriptions that cannot start (an unknown task) answer their own
    // error and keep no slot: the last slot is still free after several.
    await until(async () => (await subscribeRpc("task_unknown")).status === 200, "the probe's slot");
    for (let i = 0; i < 3; i++) {
      const unknown = await subscribeRpc("task_unknown");
      expect(unknown.status).toBe(200);
      expect((await unknown.json()).error.message).toMatch(/not found/i);
    }
    const last = client.resubscribeTask({ tenant: "", id: task.id });
    expect(((await last.next()).value as StreamResponse).payload?.$case).toBe("task");
    expect((await subscribeRpc(task.id)).status).toBe(429);
  });
});
