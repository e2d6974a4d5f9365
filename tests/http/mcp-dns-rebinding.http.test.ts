// Issue 14 item 14: the example MCP server (examples/mcp-server.ts) refuses a request whose Host or Origin
// is not its own (DNS rebinding: a web page whose name was re-pointed at 127.0.0.1 reaches a merchant's
// local paid tools from the victim's browser; MCP TypeScript SDK advisory GHSA-w48q-cv73-mx4w). A foreign
// Host or Origin gets 403 from the SDK transport's DNS-rebinding protection; the local one is served.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/http";
import { startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { createTestMerchant } from "../helpers/merchants";

let example: ExampleServer;
let port: number;

beforeAll(async () => {
  const seller = await createTestMerchant("DNS rebinding");
  example = await startMcpExample({ SERVICE_URL: baseUrl(), SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId });
  port = Number(new URL(example.url).port);
});

afterAll(async () => {
  await example?.stop();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "rebinding-test", version: "1.0.0" } },
});

/** A raw request (fetch would not let us set Host): the status and, for a refusal, the body. */
function send(method: "POST" | "GET", headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method,
        headers: { Accept: "application/json, text/event-stream", "Content-Type": "application/json", ...headers },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status === 200) {
          res.destroy(); // an SSE stream: the status is what matters
          return resolve({ status, body: "" });
        }
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status, body }));
      },
    );
    req.on("error", reject);
    req.end(method === "POST" ? INITIALIZE : undefined);
  });
}

describe("example MCP server: DNS-rebinding protection", () => {
  it("serves its own Host (127.0.0.1 and localhost on its port), with or without its own Origin", async () => {
    expect((await send("POST", { Host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await send("POST", { Host: `localhost:${port}`, Origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await send("POST", { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it("a foreign Host is 403, POST and GET alike", async () => {
    for (const host of [`evil.example:${port}`, "evil.example", `127.0.0.1:${port + 1}`]) {
      const res = await send("POST", { Host: host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/Host/) } });
    }
    expect((await send("GET", { Host: `evil.example:${port}` })).status).toBe(403);
  });

  it("a foreign Origin is 403, even with the local Host (a rebound page's requests carry its own origin)", async () => {
    for (const origin of [`http://evil.example:${port}`, "https://evil.example", "null"]) {
      const res = await send("POST", { Host: `127.0.0.1:${port}`, Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { message: expect.stringMatching(/Origin/) } });
    }
  });
});
