// Discovery of hosted paid resources (docs/x402.md and docs/mpp.md, "Discovery") against real servers, read by the
// protocols' own libraries: `listed` and `discovery` on /v1/paid_resources; GET /x402/discovery/resources read by
// @x402/extensions' withBazaar() facilitator client (filters, limit/offset paging, the mode it lists); the 402's
// `bazaar` extension checked by @x402/extensions' validators and extracted from the stock client's payment payload
// with extractDiscoveryInfo (as a facilitator catalogs it), then paid; GET /mpp/openapi.json read by mppx/discovery
// (the service method's offer, and the evm method's beside it where a resource is sold with it).
//
// Two deployments over one database: the shared server settles x402 live (UNREACHABLE_LIVE_CHAIN) and has no
// LIVE_RAIL, so its x402 catalog lists live resources and its MPP catalog test ones; `testnet` has no live chain and
// LIVE_RAIL=test, so the other way round.
import { x402Client } from "@x402/core/client";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm";
import {
  extractDiscoveryInfo,
  extractDiscoveryInfoV1,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  withBazaar,
  type DiscoveryResource,
} from "@x402/extensions/bazaar";
import { DiscoveryDocument, validate } from "mppx/discovery";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, livePayable, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

const FORECAST = {
  input: { city: "Paris" },
  inputSchema: { properties: { city: { type: "string" } }, required: ["city"] },
  output: { example: { forecast: "sunny" }, schema: { properties: { forecast: { type: "string" } }, required: ["forecast"] } },
};

let m: TestMerchant;
let testnet: ServerProcess;
let payout: string;
const made: Record<string, any> = {};

async function resource(body: Record<string, unknown>, key = m.testKey) {
  const res = await call("POST", "/v1/paid_resources", {
    key,
    body: { name: "Forecast", amount: 25, currency: "usd", content: { forecast: "sunny" }, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const bazaar = (base: string) => withBazaar(new HTTPFacilitatorClient({ url: `${base}/x402` })).extensions.bazaar;

/** Every item of a deployment's x402 catalog, page by page (limit 2), checking the pages agree. */
async function everyItem(base: string, params: { type?: string; network?: string } = {}): Promise<DiscoveryResource[]> {
  const items: DiscoveryResource[] = [];
  let total: number | null = null;
  for (let offset = 0; ; offset += 2) {
    const page = await bazaar(base).listResources({ ...params, limit: 2, offset });
    expect(page.x402Version).toBe(2);
    expect(page.pagination).toMatchObject({ limit: 2, offset });
    total ??= page.pagination.total;
    expect(page.pagination.total).toBe(total);
    expect(page.items.length).toBe(Math.max(0, Math.min(2, total - offset)));
    items.push(...page.items);
    if (offset + 2 >= total) break;
  }
  expect(items.length).toBe(total);
  expect(new Set(items.map((item) => item.resource)).size).toBe(items.length); // no page repeats another's item
  return items;
}

const idOf = (item: { resource: string }) => item.resource.split("/").pop();

beforeAll(async () => {
  m = await createTestMerchant("Discovery seller");
  testnet = await startTestServer({ LIVE_RAIL: "test", RATE_LIMIT_MAX: "100000" });
  payout = await livePayable(m);
  made.listed = await resource({ listed: true, description: "Tomorrow's forecast", discovery: FORECAST });
  made.unlisted = await resource({ description: "Not in any catalog" });
  made.archived = await resource({ listed: true, active: false });
  made.euro = await resource({ listed: true, currency: "eur", name: "Euro forecast" });
  made.post = await resource({
    listed: true,
    method: "POST",
    name: "Summarize",
    discovery: { input: { text: "hello" }, inputSchema: { properties: { text: { type: "string" } }, required: ["text"] } },
  });
  made.live = await resource({ listed: true, name: "Live forecast", discovery: FORECAST }, m.liveKey);
}, 120_000);

afterAll(() => testnet?.stop());

describe("listed and discovery on /v1/paid_resources", () => {
  it("listed defaults to false and discovery to null; both are set, changed and cleared", async () => {
    expect(made.unlisted).toMatchObject({ listed: false, discovery: null });
    expect(made.listed).toMatchObject({ listed: true, discovery: FORECAST });
    const r = await resource({});
    const listed = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { listed: true, discovery: FORECAST } });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ listed: true, discovery: FORECAST });
    const cleared = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { listed: false, discovery: null } });
    expect(cleared.body).toMatchObject({ listed: false, discovery: null });
    expect((await call("GET", `/v1/paid_resources/${r.id}`, { key: m.testKey })).body).toMatchObject({ listed: false, discovery: null });
  });

  it("discovery that makes no valid bazaar extension is 400 VALIDATION_ERROR, for the method the resource will have", async () => {
    const bad = [
      { listed: "yes" },
      { discovery: { input: { city: 3 }, inputSchema: FORECAST.inputSchema } }, // the example is outside its schema
      { discovery: { inputSchema: FORECAST.inputSchema } }, // a required parameter without an example
      { discovery: { output: { schema: { type: "object" } } } }, // a schema without its example
      { discovery: { output: { example: { forecast: 1 }, schema: FORECAST.output.schema } } },
      { discovery: { output: { example: [1, 2] } } }, // the bazaar extension declares an object
      { discovery: { bodyType: "xml" } },
      { discovery: { surprise: true } },
      { discovery: { input: { text: "x".repeat(5000) } } }, // over 4 KB
      { discovery: { inputSchema: { $ref: "https://example.com/schema.json" } } }, // external references are refused
    ];
    for (const body of bad) {
      const res = await call("POST", "/v1/paid_resources", {
        key: m.testKey,
        body: { name: "x", amount: 5, currency: "usd", content: 1, ...body },
      });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    // A GET's query example is no POST's body: changing the method re-checks the kept metadata.
    const r = await resource({ discovery: { input: { city: "Paris" }, inputSchema: { properties: { city: { type: "string" } } } } });
    const toPost = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { method: "POST" } });
    expect(toPost.status).toBe(200); // still valid as a body
    expect(toPost.body.method).toBe("POST");
  });
});

describe("GET /x402/discovery/resources", () => {
  it("without a live chain: the listed, active, USD test resources, with their price and bazaar schema; paging and filters", async () => {
    const items = await everyItem(testnet.url);
    const ids = items.map(idOf);
    expect(ids).toContain(made.listed.id);
    expect(ids).toContain(made.post.id);
    for (const absent of [made.unlisted, made.archived, made.euro, made.live]) expect(ids).not.toContain(absent.id);
    // Oldest first: the order they were made in.
    expect(ids.indexOf(made.listed.id)).toBeLessThan(ids.indexOf(made.post.id));

    const item = items.find((entry) => idOf(entry) === made.listed.id)!;
    const supported = await call("GET", "/x402/supported", { key: m.testKey, base: testnet.url });
    expect(item).toMatchObject({
      resource: `${testnet.url}/x402/r/${made.listed.id}`,
      type: "http",
      x402Version: 2,
      description: "Tomorrow's forecast",
      mimeType: "application/json",
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "250000", // 25 cents in atomic USDC
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          payTo: supported.body.kinds[0].extra.payTo,
        },
      ],
    });
    expect(Date.parse(item.lastUpdated)).toBe(Date.parse(made.listed.updatedAt));
    const declared = item.extensions!.bazaar as any;
    expect(validateDiscoveryExtension(declared)).toEqual({ valid: true });
    expect(declared.info).toEqual({
      input: { type: "http", method: "GET", queryParams: { city: "Paris" } },
      output: { type: "json", example: { forecast: "sunny" } },
    });
    expect(declared.schema.properties.input.properties.queryParams).toMatchObject({ type: "object", ...FORECAST.inputSchema });
    const post = items.find((entry) => idOf(entry) === made.post.id)!.extensions!.bazaar as any;
    expect(post.info.input).toEqual({ type: "http", method: "POST", bodyType: "json", body: { text: "hello" } });

    // The filters: another type, scheme, network or extension lists nothing; this deployment's network lists the same.
    for (const params of [{ type: "mcp" }, { network: "eip155:8453" }]) {
      const none = await bazaar(testnet.url).listResources(params);
      expect(none, JSON.stringify(params)).toEqual({ x402Version: 2, items: [], pagination: { limit: 20, offset: 0, total: 0 } });
    }
    for (const query of ["scheme=upto", "extensions=sign-in-with-x"])
      expect((await call("GET", `/x402/discovery/resources?${query}`, { base: testnet.url })).body.pagination.total).toBe(0);
    expect((await everyItem(testnet.url, { type: "http", network: "eip155:84532" })).map(idOf)).toEqual(ids);
    const filtered = await call("GET", "/x402/discovery/resources?scheme=exact&extensions=bazaar&limit=100", { base: testnet.url });
    expect(filtered.body.items.map(idOf)).toEqual(ids.slice(0, 100));
    // payTo: the resources paid to that address (any case), and nothing for an address nobody is paid at.
    const paidTo = items.find((entry) => idOf(entry) === made.listed.id)!.accepts[0]!.payTo;
    const mine = await call("GET", `/x402/discovery/resources?payTo=${paidTo.toLowerCase()}&limit=100`, { base: testnet.url });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map(idOf)).toEqual(expect.arrayContaining([made.listed.id, made.post.id]));
    for (const item of mine.body.items) expect(item.accepts.map((a: { payTo: string }) => a.payTo)).toEqual([paidTo]);
    const nobody = privateKeyToAccount(generatePrivateKey()).address;
    expect((await call("GET", `/x402/discovery/resources?payTo=${nobody}`, { base: testnet.url })).body.pagination.total).toBe(0);
    // Past the end: no items, the same total.
    const past = await bazaar(testnet.url).listResources({ offset: items.length + 5 });
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(items.length);
  });

  it("an unlisted resource made listed appears, and leaves when unlisted or archived", async () => {
    const r = await resource({});
    const listedIds = async () => (await everyItem(testnet.url)).map(idOf);
    expect(await listedIds()).not.toContain(r.id);
    await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { listed: true } });
    expect(await listedIds()).toContain(r.id);
    await call("DELETE", `/v1/paid_resources/${r.id}`, { key: m.testKey });
    expect(await listedIds()).not.toContain(r.id);
  });

  it("a deployment that settles x402 live lists live resources only, payable at the merchant's payout address", async () => {
    const items = await everyItem(baseUrl());
    const ids = items.map(idOf);
    expect(ids).toContain(made.live.id);
    for (const absent of [made.listed, made.post, made.unlisted]) expect(ids).not.toContain(absent.id);
    const live = items.find((entry) => idOf(entry) === made.live.id)!;
    expect(live.accepts).toHaveLength(1);
    expect(live.accepts[0]).toMatchObject({ scheme: "exact", network: "eip155:84532", amount: "250000" });
    expect(live.accepts[0]!.payTo.toLowerCase()).toBe(payout.toLowerCase());
    // payTo: the live payout address lists the merchant's live resource; another address lists nothing.
    const byPayout = await call("GET", `/x402/discovery/resources?payTo=${payout.toLowerCase()}&limit=100`);
    expect(byPayout.body.items.map(idOf)).toContain(made.live.id);
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect((await call("GET", `/x402/discovery/resources?payTo=${other}`)).body.pagination.total).toBe(0);
    // The route's own answer (documented, public): bad paging is the error contract's 400.
    const page = await call("GET", "/x402/discovery/resources?limit=1");
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBe(1);
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=two", "payTo="]) {
      const res = await call("GET", `/x402/discovery/resources?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("the 402's bazaar extension, read by @x402/extensions", () => {
  it("a listed resource declares it; the stock client echoes it, extractDiscoveryInfo catalogs it, and the payment settles", async () => {
    const res = await fetch(`${testnet.url}/x402/r/${made.listed.id}`);
    expect(res.status).toBe(402);
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    expect(validateDiscoveryExtension(required.extensions.bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(required.extensions.bazaar)).toEqual({ valid: true });
    expect(required.extensions["payment-identifier"]).toBeDefined(); // beside the one it declared before

    const client = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
    const payload = await client.createPaymentPayload(required);
    expect(payload.extensions?.bazaar).toEqual(required.extensions.bazaar);
    const discovered = extractDiscoveryInfo(payload, payload.accepted) as any;
    expect(discovered).toMatchObject({
      resourceUrl: `${testnet.url}/x402/r/${made.listed.id}`,
      method: "GET",
      x402Version: 2,
      description: "Tomorrow's forecast",
      mimeType: "application/json",
      discoveryInfo: { input: { type: "http", method: "GET", queryParams: { city: "Paris" } }, output: { example: { forecast: "sunny" } } },
    });

    // x402 v1 has no extensions: its requirements carry the same discovery in `outputSchema`, as the library reads v1.
    const v1 = (await res.json()) as { accepts: Parameters<typeof extractDiscoveryInfoV1>[0][] };
    expect(v1.accepts.length).toBeGreaterThan(0);
    for (const requirement of v1.accepts) expect(extractDiscoveryInfoV1(requirement)).toEqual(discovered.discoveryInfo);
    const unlistedV1 = await (await fetch(`${testnet.url}/x402/r/${made.unlisted.id}`)).json();
    for (const requirement of unlistedV1.accepts) expect(extractDiscoveryInfoV1(requirement)).toBeNull();

    // The echoed extension does not get in the way of the payment.
    const paid = await fetch(`${testnet.url}/x402/r/${made.listed.id}`, {
      headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") },
    });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ forecast: "sunny" });

    // An unlisted resource declares no bazaar extension; a POST resource declares its body.
    const unlisted = await fetch(`${testnet.url}/x402/r/${made.unlisted.id}`);
    expect(JSON.parse(Buffer.from(unlisted.headers.get("payment-required")!, "base64").toString("utf8")).extensions.bazaar).toBeUndefined();
    const post = await fetch(`${testnet.url}/x402/r/${made.post.id}`, { method: "POST" });
    const postRequired = JSON.parse(Buffer.from(post.headers.get("payment-required")!, "base64").toString("utf8"));
    const postPayload = await client.createPaymentPayload(postRequired);
    expect((extractDiscoveryInfo(postPayload, postPayload.accepted) as any).discoveryInfo.input).toEqual({
      type: "http",
      method: "POST",
      bodyType: "json",
      body: { text: "hello" },
    });
  });
});

describe("GET /mpp/openapi.json, read by mppx/discovery", () => {
  it("an OpenAPI 3.1 document with x-payment-info for each listed resource of the mode MPP sells", async () => {
    const res = await call("GET", "/mpp/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(validate(doc)).toEqual([]); // mppx's own validator: no errors, no warnings
    const parsed = DiscoveryDocument.parse(doc);
    expect(parsed.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: baseUrl() }]);
    const paths = parsed.paths!;
    // No LIVE_RAIL here: the test resources, listed and active, in every currency MPP sells.
    expect(paths[`/mpp/r/${made.listed.id}`]?.get?.["x-payment-info"]).toEqual({
      offers: [
        {
          amount: "25",
          currency: "usd",
          description: "Tomorrow's forecast",
          intent: "charge",
          method: "service",
          recipient: m.merchantId,
          externalId: made.listed.id,
        },
        // Beside it, mppx's evm charge method (USD, fixed price) on test mode's network: its price in USDC to the merchant's address there.
        {
          amount: "250000",
          currency: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          description: "Tomorrow's forecast",
          intent: "charge",
          method: "evm",
          recipient: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          externalId: made.listed.id,
        },
      ],
    });
    // Priced in EUR, which the evm method does not take: the service method alone.
    expect(paths[`/mpp/r/${made.euro.id}`]?.get?.["x-payment-info"]?.offers).toHaveLength(1);
    expect(paths[`/mpp/r/${made.euro.id}`]?.get?.["x-payment-info"]?.offers[0]).toMatchObject({ amount: "25", currency: "eur" });
    for (const absent of [made.unlisted, made.archived, made.live]) expect(paths[`/mpp/r/${absent.id}`]).toBeUndefined();
    // What the discovery metadata says: the query parameter, the answer's schema, the POST's body.
    const get = doc.paths[`/mpp/r/${made.listed.id}`].get;
    expect(get.parameters).toEqual([{ name: "city", in: "query", required: true, schema: { type: "string" } }]);
    expect(get.responses["402"]).toBeDefined();
    expect(get.responses["200"].content["application/json"]).toEqual({ schema: FORECAST.output.schema, example: { forecast: "sunny" } });
    expect(doc.paths[`/mpp/r/${made.post.id}`].post.requestBody.content["application/json"]).toEqual({
      schema: { properties: { text: { type: "string" } }, required: ["text"] },
      example: { text: "hello" },
    });
    // The REST document is still at /v1/openapi.json.
    expect((await call("GET", "/v1/openapi.json")).body.paths["/v1/paid_resources"]).toBeDefined();
  });

  it("a deployment with a live rail lists live resources only", async () => {
    const res = await fetch(`${testnet.url}/mpp/openapi.json`);
    const doc = (await res.json()) as any;
    expect(validate(doc)).toEqual([]);
    expect(doc.paths[`/mpp/r/${made.live.id}`].get["x-payment-info"].offers[0]).toMatchObject({ amount: "25", currency: "usd" });
    for (const absent of [made.listed, made.euro, made.post]) expect(doc.paths[`/mpp/r/${absent.id}`]).toBeUndefined();
  });
});
