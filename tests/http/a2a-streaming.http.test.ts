// A2A 1.0 streaming, push notifications, the signed agent card and the HTTP+JSON binding (docs/a2a.md), with the
// REAL @a2a-js/sdk 1.3 client against real server processes: a purchase streamed over SSE (status updates in order,
// the receipt artifact), a stream dropped mid-purchase still completes the task, SubscribeToTask after a disconnect
// (on a SECOND server process: it starts from the stored task and follows later updates made by the first), signed
// push notifications received by an HTTP server in the test and verified against /.well-known/jwks.json, the agent
// card's JWS verified with the SDK's verifier, and the REST binding serving the same tasks.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { AgentCard, TaskState, verifyAgentCardSignature, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from "@a2a-js/sdk/client";
import { ExactEvmScheme } from "@x402/evm";
import { x402Client } from "@x402/fetch";
import { createRemoteJWKSet, importJWK, jwtVerify, type JWK } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, agentBase, bearerFetch, send, text, userMessage, X402_EXT } from "../helpers/a2a";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

let seller: TestMerchant;
let buyer: TestMerchant;
let second: ServerProcess;
let hat: { id: string };

const x402Options = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXT)) };

beforeAll(async () => {
  [seller, buyer] = await Promise.all([createTestMerchant("A2A stream seller"), createTestMerchant("A2A stream buyer")]);
  second = await startTestServer();
  hat = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Blue hat", unitAmount: 30, currency: "usd" } })).body;
  expect(hat.id).toMatch(/^prd_/);
});
afterAll(() => second?.stop());

function request(message: ReturnType<typeof userMessage>) {
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

async function paymentFor(task: Task) {
  const required = task.status!.message!.metadata!["x402.payment.required"];
  const x402 = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  return x402.createPaymentPayload(required);
}

async function paymentMessage(task: Task) {
  return userMessage([text("paying")], {
    taskId: task.id,
    contextId: task.contextId,
    metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": await paymentFor(task) },
  });
}

/** What a stream says, event by event: "task:<state>", "status:<state>", "artifact:<name>". */
function describeEvent(event: StreamResponse): string {
  const p = event.payload!;
  if (p.$case === "task") return `task:${TaskState[p.value.status!.state]}`;
  if (p.$case === "statusUpdate") return `status:${TaskState[p.value.status!.state]}`;
  if (p.$case === "artifactUpdate") return `artifact:${p.value.artifact!.name}`;
  return p.$case;
}

async function collect(stream: AsyncGenerator<StreamResponse, void, undefined>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function restClient(merchantId: string, key: string, base = baseUrl()): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl: bearerFetch(key) })],
      preferredTransports: ["HTTP+JSON"],
    }),
  );
  return factory.createFromUrl(`${agentBase(merchantId, base)}/`);
}

describe("the signed agent card", () => {
  it("declares streaming, push notifications and the HTTP+JSON binding, and its JWS verifies against /.well-known/jwks.json", async () => {
    const res = await fetch(`${agentBase(seller.merchantId)}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(json.supportedInterfaces).toContainEqual({
      url: agentBase(seller.merchantId),
      protocolBinding: "HTTP+JSON",
      protocolVersion: "1.0",
    });
    expect(json.signatures).toHaveLength(1);
    const header = JSON.parse(Buffer.from(json.signatures[0].protected, "base64url").toString());
    expect(header).toMatchObject({ alg: "ES256", typ: "JOSE", jku: `${baseUrl()}/.well-known/jwks.json` });

    const fetchedKeys: string[] = [];
    const verify = verifyAgentCardSignature(async (kid, jku) => {
      fetchedKeys.push(jku!);
      const jwks = (await (await fetch(jku!)).json()) as { keys: JWK[] };
      const jwk = jwks.keys.find((k) => k.kid === kid);
      if (!jwk) throw new Error(`no key ${kid}`);
      return importJWK(jwk, "ES256") as Promise<CryptoKey>;
    });
    await expect(verify(AgentCard.fromJSON(json))).resolves.toBeUndefined();
    expect(fetchedKeys).toEqual([`${baseUrl()}/.well-known/jwks.json`]);
    // The SDK client verifies the card it resolved, too.
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    await expect(client.getAgentCard(undefined, verify)).resolves.toMatchObject({ name: json.name });
    // Any change to the card breaks the signature.
    await expect(verify(AgentCard.fromJSON({ ...json, name: "Someone else" }))).rejects.toThrow();
    await expect(verify(AgentCard.fromJSON({ ...json, capabilities: { ...json.capabilities, streaming: false } }))).rejects.toThrow();
  });
});

describe("streaming a purchase (SendStreamingMessage over SSE)", () => {
  it("streams submitted -> working -> input-required, then the payment working -> receipt artifact -> completed, in order", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const first = await collect(client.sendMessageStream(request(userMessage([text(`buy ${hat.id} 2`)])), x402Options));
    expect(first.map(describeEvent)).toEqual([
      "task:TASK_STATE_SUBMITTED",
      "status:TASK_STATE_WORKING",
      "status:TASK_STATE_INPUT_REQUIRED",
    ]);
    const last = first.at(-1)!.payload!;
    expect(last.$case).toBe("statusUpdate");
    const taskId = last.$case === "statusUpdate" ? last.value.taskId : "";
    const stored = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(stored.status?.message?.metadata?.["x402.payment.status"]).toBe("payment-required");

    const paid = await collect(client.sendMessageStream(request(await paymentMessage(stored)), x402Options));
    expect(paid.map(describeEvent)).toEqual(["task:TASK_STATE_WORKING", "artifact:order", "status:TASK_STATE_COMPLETED"]);
    const done = paid.at(-1)!.payload!;
    if (done.$case !== "statusUpdate") throw new Error("no final status");
    expect(done.value.status?.message?.metadata?.["x402.payment.status"]).toBe("payment-completed");
    const artifact = paid[1].payload!;
    if (artifact.$case !== "artifactUpdate") throw new Error("no artifact");
    const order = artifact.value.artifact!.parts[0].content;
    expect(order?.$case === "data" && (order.value as { paymentIntentId: string }).paymentIntentId).toMatch(/^pi_/);
    // The stream's states are what was stored.
    const final = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(final.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(final.artifacts.map((a) => a.name)).toEqual(["order"]);
  });

  it("a stream dropped mid-purchase still completes the task (the server reads it to its end)", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const t = await send(client, userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);
    const stream = client.sendMessageStream(request(await paymentMessage(t)), x402Options);
    const firstEvent = await stream.next();
    expect(describeEvent(firstEvent.value as StreamResponse)).toBe("task:TASK_STATE_WORKING");
    await stream.return(undefined); // the client goes away
    const completed = await until(async () => {
      const got = await client.getTask({ tenant: "", id: t.id, historyLength: undefined });
      return got.status?.state === TaskState.TASK_STATE_COMPLETED ? got : undefined;
    }, "the dropped purchase to complete");
    expect(completed.artifacts.map((a) => a.name)).toEqual(["order"]);
  });
});

describe("SubscribeToTask", () => {
  it("after a disconnect, resubscribing (on another server process) starts from the stored task and gets the later updates", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const onSecond = await a2aClient(seller.merchantId, buyer.testKey, second.url);
    const t = await send(client, userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);

    // Subscribe, read the current task, disconnect.
    const dropped = onSecond.resubscribeTask({ tenant: "", id: t.id });
    const head = (await dropped.next()).value as StreamResponse;
    expect(describeEvent(head)).toBe("task:TASK_STATE_INPUT_REQUIRED");
    await dropped.return(undefined);

    // Resubscribe: the stored task first, then what the FIRST process does to it.
    const events: StreamResponse[] = [];
    const following = (async () => {
      for await (const event of onSecond.resubscribeTask({ tenant: "", id: t.id })) events.push(event);
    })();
    await until(async () => (events.length ? true : undefined), "the subscription's first event");
    expect(describeEvent(events[0])).toBe("task:TASK_STATE_INPUT_REQUIRED");
    const paid = await send(client, await paymentMessage(t), [X402_EXT]);
    expect(paid.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await following; // the stream ends at the terminal state
    const seen = events.map(describeEvent);
    expect(seen[0]).toBe("task:TASK_STATE_INPUT_REQUIRED");
    expect(seen).toContain("artifact:order");
    expect(seen.at(-1)).toBe("status:TASK_STATE_COMPLETED");
    const statuses = seen.filter((s) => s.startsWith("status:"));
    expect(["status:TASK_STATE_WORKING,status:TASK_STATE_COMPLETED", "status:TASK_STATE_COMPLETED"]).toContain(statuses.join(","));
    expect(seen.indexOf("artifact:order")).toBeLessThan(seen.length - 1);

    // A terminal task cannot be subscribed to.
    await expect(collect(onSecond.resubscribeTask({ tenant: "", id: t.id }))).rejects.toThrow(/terminal/);
  });
});

describe("push notifications", () => {
  let hook: http.Server;
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let hookUrl = "";

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/a2a-hook`;
  });
  afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

  it("set/get/list/delete configs; each update of the purchase is POSTed in order, signed with a JWT the JWKS verifies", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const t = await send(client, userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);
    const config = await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "",
      taskId: t.id,
      url: hookUrl,
      token: "tok-123",
      authentication: { scheme: "Bearer", credentials: "" },
    });
    expect(config.id).toBeTruthy();
    expect(await client.getTaskPushNotificationConfig({ tenant: "", taskId: t.id, id: config.id })).toMatchObject({ url: hookUrl });
    const spare = await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "spare",
      taskId: t.id,
      url: `${hookUrl}/spare`,
      token: "",
      authentication: undefined,
    });
    const listed = await client.listTaskPushNotificationConfig({ tenant: "", taskId: t.id, pageSize: 0, pageToken: "" });
    expect(listed.configs.map((c) => c.id).sort()).toEqual([config.id, "spare"].sort());
    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: t.id, id: spare.id });
    expect((await client.listTaskPushNotificationConfig({ tenant: "", taskId: t.id, pageSize: 0, pageToken: "" })).configs).toHaveLength(1);
    // Not a webhook URL: refused, nothing stored.
    await expect(
      client.createTaskPushNotificationConfig({
        tenant: "",
        id: "bad",
        taskId: t.id,
        url: "file:///etc/passwd",
        token: "",
        authentication: undefined,
      }),
    ).rejects.toThrow(/url/i);
    // Another buyer's task: not found.
    const stranger = await a2aClient(seller.merchantId, seller.testKey);
    await expect(stranger.createTaskPushNotificationConfig({ ...config, id: "x" })).rejects.toThrow();

    await send(client, await paymentMessage(t), [X402_EXT]);
    const mine = () => received.filter((r) => JSON.parse(r.body) && r.body.includes(t.id));
    await until(async () => (mine().some((r) => r.body.includes("TASK_STATE_COMPLETED")) ? true : undefined), "the completed notification");
    const deliveries = mine();
    const kinds = deliveries.map((d) => Object.keys(JSON.parse(d.body))[0]);
    expect(kinds).toEqual(["task", "artifactUpdate", "statusUpdate"]);
    expect(JSON.parse(deliveries[2].body).statusUpdate.status.state).toBe("TASK_STATE_COMPLETED");

    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/.well-known/jwks.json`));
    for (const delivery of deliveries) {
      const jwt = delivery.headers["a2a-notification-signature"] as string;
      const { payload, protectedHeader } = await jwtVerify(jwt, jwks, { issuer: baseUrl(), audience: hookUrl, maxTokenAge: "5m" });
      expect(protectedHeader.alg).toBe("ES256");
      expect(payload.taskId).toBe(t.id);
      expect(payload.jti).toBeTruthy();
      expect(payload.request_body_sha256).toBe(createHash("sha256").update(delivery.body).digest("base64url"));
      // The buyer asked for Bearer without credentials: the same JWT is the Bearer token; its legacy token comes back.
      expect(delivery.headers.authorization).toBe(`Bearer ${jwt}`);
      expect(delivery.headers["x-a2a-notification-token"]).toBe("tok-123");
    }
    // A body altered in transit no longer matches the signed hash.
    const tampered = deliveries[2].body.replace("TASK_STATE_COMPLETED", "TASK_STATE_FAILED");
    const { payload } = await jwtVerify(deliveries[2].headers["a2a-notification-signature"] as string, jwks);
    expect(createHash("sha256").update(tampered).digest("base64url")).not.toBe(payload.request_body_sha256);
  });
});

describe("the HTTP+JSON (REST) binding", () => {
  it("serves the same tasks as JSON-RPC (the SDK's REST transport), streams a purchase, and answers errors in its shape", async () => {
    const jsonRpc = await a2aClient(seller.merchantId, buyer.testKey);
    const rest = await restClient(seller.merchantId, buyer.testKey);
    const t = await send(jsonRpc, userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);
    const viaRest = await rest.getTask({ tenant: "", id: t.id, historyLength: undefined });
    expect(viaRest.id).toBe(t.id);
    expect(viaRest.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(viaRest.metadata).toEqual(t.metadata);

    // Pay over REST with a stream; JSON-RPC sees the completed task.
    const paid = await collect(rest.sendMessageStream(request(await paymentMessage(viaRest)), x402Options));
    expect(paid.map(describeEvent)).toEqual(["task:TASK_STATE_WORKING", "artifact:order", "status:TASK_STATE_COMPLETED"]);
    expect((await jsonRpc.getTask({ tenant: "", id: t.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const listed = await rest.listTasks({
      tenant: "",
      contextId: t.contextId,
      status: 0,
      pageSize: 10,
      pageToken: "",
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(listed.tasks.map((x) => x.id)).toEqual([t.id]);

    // Raw HTTP: the binding's paths, media type, version and errors.
    const headers = { Authorization: `Bearer ${buyer.testKey}`, "A2A-Version": "1.0" };
    const got = await fetch(`${agentBase(seller.merchantId)}/tasks/${t.id}?historyLength=0`, { headers });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toContain("application/a2a+json");
    expect(await got.json()).toMatchObject({ id: t.id, status: { state: "TASK_STATE_COMPLETED" } });
    const missing = await fetch(`${agentBase(seller.merchantId)}/tasks/nope`, { headers });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatchObject({ code: 404, status: "NOT_FOUND" });
    const noKey = await fetch(`${agentBase(seller.merchantId)}/tasks/${t.id}`, { headers: { "A2A-Version": "1.0" } });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    const oldVersion = await fetch(`${agentBase(seller.merchantId)}/tasks/${t.id}`, { headers: { Authorization: headers.Authorization } });
    expect(oldVersion.status).toBe(400);
    const badJson = await fetch(`${agentBase(seller.merchantId)}/message:send`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).error.status).toBe("INVALID_ARGUMENT");
    const wrongType = await fetch(`${agentBase(seller.merchantId)}/message:send`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: "browse",
    });
    expect(wrongType.status).toBe(400);
    const terminal = await fetch(`${agentBase(seller.merchantId)}/tasks/${t.id}:subscribe`, { headers });
    expect(terminal.status).toBe(400);
    expect((await terminal.json()).error.status).toBe("FAILED_PRECONDITION");
    const unknownOp = await fetch(`${agentBase(seller.merchantId)}/message:fly`, { method: "POST", headers });
    expect(unknownOp.status).toBe(404);
    // Another buyer does not see the task.
    const stranger = await restClient(seller.merchantId, seller.testKey);
    await expect(stranger.getTask({ tenant: "", id: t.id, historyLength: undefined })).rejects.toThrow();
  });
});
