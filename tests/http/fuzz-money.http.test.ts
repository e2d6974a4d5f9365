// The proof of issue 14: the money endpoints fuzzed across TWO server processes on one database. 1,000
// requests from a fixed seed (random methods, ids, path encodings, content types, bodies, credentials),
// sent alternately to each instance, four at a time; every answer is below 500 and every non-2xx answer
// is the error contract `{ error: { code, message, details } }` (a HEAD answer has no body to check).
// Both servers' logs stay free of unhandled errors. Real objects (open and paid checkouts, a refund,
// meters, a reservation, another merchant's checkout) are among the ids, so some requests do real work.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout } from "../helpers/payments";
import { isErrorShape, rawRequest } from "../helpers/raw-request";
import { startTestServer } from "../helpers/server";

const SEED = 20_261_125;
const REQUESTS = Number(process.env.FUZZ_RUNS ?? 1000);
const CONCURRENCY = 4;

let servers: ServerProcess[] = [];
const logs = ["", ""];
let m: TestMerchant;
let other: TestMerchant;
const ids: Record<string, string[]> = {};

beforeAll(async () => {
  // High rate limits so every request reaches its handler; the buckets (like everything) are shared in Postgres.
  // LIVE_RAIL=test: live keys charge too (without a rail a live charge is the documented 502, not a defect).
  const settings = { RATE_LIMIT_MAX: "1000000", FAULT_INJECTION: "0", LIVE_RAIL: "test" };
  servers = await Promise.all([startTestServer(settings), startTestServer(settings)]);
  servers.forEach((server, i) => {
    server.child.stdout!.on("data", (chunk) => (logs[i] += chunk));
    server.child.stderr!.on("data", (chunk) => (logs[i] += chunk));
  });
  [m, other] = await Promise.all([createTestMerchant("Fuzzed"), createTestMerchant("Fuzzed other")]);
  const base = servers[0].url;
  const key = m.testKey;
  const open = await openCheckout(key, { successUrl: "https://shop.example/ok" }, base);
  const paid = await openCheckout(key, { amount: 5000 }, base);
  const order = (await capture(key, paid.id, "pm_card_visa", { base })).body;
  const refund = (await call("POST", "/v1/refunds", { key, base, body: { orderId: order.id, amount: 100 } })).body;
  const customer = (await call("POST", "/v1/customers", { key, base, body: { name: "Fuzz payer" } })).body;
  const meterBody = { customerId: customer.id, currency: "usd", thresholdMinor: 500 };
  const postPaid = (await call("POST", "/v1/meters", { key, base, body: { ...meterBody, prepaid: false } })).body;
  const prepaid = (
    await call("POST", "/v1/meters", { key, base, body: { ...meterBody, prepaid: true, budgetMinor: 2000, paymentMethod: "pm_card_visa" } })
  ).body;
  const reservation = (
    await call("POST", `/v1/meters/${prepaid.id}/reservations`, { key, base, body: { quantity: 1, unitPriceMinor: 1000 } })
  ).body;
  const foreign = await openCheckout(other.testKey, {}, base);
  for (const [name, value] of Object.entries({ open, paid, order, refund, customer, postPaid, prepaid, reservation, foreign })) {
    if (typeof value?.id !== "string") throw new Error(`fixture ${name}: ${JSON.stringify(value)}`);
  }
  Object.assign(ids, {
    cs: [open.id, paid.id, foreign.id],
    pi: [paid.paymentIntentId, open.paymentIntentId],
    ord: [order.id],
    re: [refund.id],
    cus: [customer.id],
    mtr: [postPaid.id, prepaid.id],
    rsv: [reservation.id],
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

// ---- what a request is made of ------------------------------------------------------------------

/**
 * The money endpoints and their sub-paths ({kind} is replaced by an id), with the methods they answer
 * ([] for paths that look plausible but do not exist) and bodies they accept, so that many requests get
 * through to real work (capture, cancel, refund, paywall, meter usage, reservations, funding, close).
 */
type Route = { template: string; methods: string[]; bodies: (() => object)[] };
const ROUTES: Route[] = [
  {
    template: "/v1/checkouts",
    methods: ["GET", "POST"],
    bodies: [
      () => ({ amount: 700, currency: "usd" }),
      () => ({ currency: "usd", items: [{ name: "Tea", quantity: 2, unitAmount: 300 }], successUrl: "https://shop.example/ok" }),
    ],
  },
  { template: "/v1/checkouts/{cs}", methods: ["GET"], bodies: [] },
  {
    template: "/v1/checkouts/{cs}/capture",
    methods: ["POST"],
    bodies: [
      () => ({ paymentMethod: "pm_card_visa" }),
      () => ({ paymentMethod: "pm_card_chargeDeclined" }),
      () => ({ paymentMethod: ids.cus[0] }),
      () => ({ paymentMethod: "pm_card_visa", billingCountry: "KP" }),
    ],
  },
  { template: "/v1/checkouts/{cs}/cancel", methods: ["POST"], bodies: [() => ({})] },
  { template: "/v1/checkouts/{cs}/refunds", methods: [], bodies: [] },
  {
    template: "/v1/refunds",
    methods: ["GET", "POST"],
    bodies: [
      () => ({ orderId: ids.ord[0], amount: 1 }),
      () => ({ paymentIntentId: ids.pi[0], amount: 2, reason: "fuzz" }),
      () => ({ orderId: ids.ord[0] }),
    ],
  },
  { template: "/v1/refunds/{re}", methods: ["GET"], bodies: [] },
  { template: "/v1/payment_intents/{pi}", methods: ["GET"], bodies: [] },
  { template: "/v1/orders/{ord}", methods: ["GET"], bodies: [] },
  {
    template: "/v1/paywall/verify",
    methods: ["POST"],
    bodies: [() => ({ paymentIntentId: ids.pi[0], merchantId: m.merchantId, amount: 5000, currency: "usd", sku: "report" })],
  },
  {
    template: "/v1/paywall/pay",
    methods: ["POST"],
    bodies: [
      () => ({ merchantId: m.merchantId, amount: 100, currency: "usd", sku: "report", paymentMethod: "pm_card_visa" }),
      () => ({ merchantId: other.merchantId, amount: 100, currency: "usd", sku: "report", paymentMethod: "pm_card_chargeDeclined" }),
    ],
  },
  {
    template: "/v1/paywall/redemptions",
    methods: ["POST"],
    bodies: [() => ({ paymentIntentId: ids.pi[0] }), () => ({ paymentIntentId: ids.pi[1], amount: 100, currency: "usd", sku: "report" })],
  },
  { template: "/v1/paywall/redemptions/{pi}", methods: [], bodies: [] },
  {
    template: "/v1/meters",
    methods: ["GET", "POST"],
    bodies: [
      () => ({ customerId: ids.cus[0], currency: "usd", thresholdMinor: 100, prepaid: false }),
      () => ({
        customerId: ids.cus[0],
        currency: "usd",
        thresholdMinor: 100,
        prepaid: true,
        budgetMinor: 300,
        paymentMethod: "pm_card_visa",
      }),
    ],
  },
  { template: "/v1/meters/{mtr}", methods: ["GET"], bodies: [] },
  {
    template: "/v1/meters/{mtr}/usage",
    methods: ["POST"],
    bodies: [
      () => ({ quantity: 3, unitPriceMinor: 10, idempotencyKey: "fuzz-usage-1" }),
      () => ({ quantity: 1, unitPriceMinor: 7, idempotencyKey: "fuzz-usage-2" }),
    ],
  },
  {
    template: "/v1/meters/{mtr}/reservations",
    methods: ["POST"],
    bodies: [() => ({ quantity: 1, unitPriceMinor: 100 }), () => ({ quantity: 1, unitPriceMinor: 50, idempotencyKey: "fuzz-hold-1" })],
  },
  { template: "/v1/meters/{mtr}/reservations/{rsv}", methods: [], bodies: [] },
  { template: "/v1/meters/{mtr}/reservations/{rsv}/commit", methods: ["POST"], bodies: [() => ({}), () => ({ quantity: 1 })] },
  { template: "/v1/meters/{mtr}/reservations/{rsv}/release", methods: ["POST"], bodies: [() => ({})] },
  { template: "/v1/meters/{mtr}/top-up", methods: ["POST"], bodies: [() => ({ amountMinor: 100, paymentMethod: "pm_card_visa" })] },
  {
    template: "/v1/meters/{mtr}/fund",
    methods: ["POST"],
    bodies: [() => ({ amountMinor: 100, currency: "usd", paymentMethod: "pm_card_visa" })],
  },
  { template: "/v1/meters/{mtr}/close", methods: ["POST"], bodies: [() => ({})] },
  { template: "/v1/meters/{mtr}/retry-payment", methods: ["POST"], bodies: [() => ({})] },
];

const anyMethod = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS") },
  { weight: 1, arbitrary: fc.constantFrom("TRACE", "PROPFIND", "QUERY", "SEARCH", "PURGE", "LOCK", "CHECKOUT") },
);

/** A path segment where an id goes: a real id of the right kind (or another kind), or something odd. */
const idSegment = (kind: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ids[kind]) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.values(ids).flat()) },
    // a real id with one character percent-encoded: the same id once decoded
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...ids[kind])
        .map((id) => `${id.slice(0, 3)}%${id.charCodeAt(3).toString(16).toUpperCase()}${id.slice(4)}`),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "%",
        "%e2%82",
        "%zz",
        "%00",
        "%2F",
        "%2e%2e",
        "..",
        ".",
        "",
        "%25",
        "%c0%af",
        "%ff",
        "a%",
        "cs_%",
        `${kind}_doesnotexist`,
        "x".repeat(300),
        "\u00e9t\u00e9",
        "%E2%80%AE",
      ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.stringMatching(/^[!-~]{1,24}$/).filter((s) => !/[/?#]/.test(s)) }, // raw printable: stray %, quotes, backslashes
  );

const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "?limit=2",
      "?limit=%",
      "?limit=-1&startingAfter=%zz",
      "?status=open&status=paid",
      "?%=%",
      "?a=\u00e9",
      "/",
      "//",
      "?limit=1e999",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 3 })
      .map((q) => `?${new URLSearchParams(q)}`),
  },
);

/** A route, a method (mostly one it answers), and the path with its ids and query. */
const target = fc
  .constantFrom(...ROUTES)
  .chain((route) => {
    const kinds = [...route.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    const method = route.methods.length
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...route.methods) }, { weight: 1, arbitrary: anyMethod })
      : anyMethod;
    return fc.tuple(fc.constant(route), method, fc.tuple(...kinds.map(idSegment)), query);
  })
  .map(([route, method, segments, q]) => {
    let i = 0;
    return { route, method, path: route.template.replace(/\{\w+\}/g, () => segments[i++]) + q };
  });

const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "garbage/\u00ff",
  "",
);

const amount = fc.oneof(
  fc.integer({ min: 1, max: 5000 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, "100", null),
);
const currency = fc.oneof(fc.constantFrom("usd", "usd", "eur", "jpy", "USD", ""), fc.string({ maxLength: 4 }));
const paymentMethod = fc.oneof(
  // never pm_rail_unavailable: its 503 CIRCUIT_OPEN is the contract's answer, not a defect
  fc.constantFrom(
    "pm_card_visa",
    "pm_card_mastercard",
    "pm_card_chargeDeclined",
    "pm_card_chargeDeclinedInsufficientFunds",
    "pm_card_chargeDeclinedExpiredCard",
    "constructor",
    "__proto__",
    "",
  ),
  fc.constant(null).map(() => ids.cus[0]),
  fc.string({ maxLength: 20 }),
);
const anyId = fc.oneof(
  fc.constant(null).chain(() => fc.constantFrom(...Object.values(ids).flat())),
  fc.string({ maxLength: 70 }),
);
const sku = fc.oneof(fc.constantFrom("report", "tool:search", " ", "\u0000", "x".repeat(201)), fc.string({ maxLength: 20 }));

/** Fields any money endpoint takes, each with plausible and implausible values; a body is a subset. */
const FIELDS = {
  amount,
  amountMinor: amount,
  currency,
  paymentMethod,
  billingCountry: fc.constantFrom("US", "DE", "KP", "us", "", "XX"),
  paymentIntentId: anyId,
  orderId: anyId,
  customerId: anyId,
  merchantId: fc.oneof(
    fc.constant(null).map(() => m.merchantId),
    fc.constant(null).map(() => other.merchantId),
    fc.string({ maxLength: 20 }),
  ),
  sku,
  reason: fc.string({ maxLength: 40 }),
  quantity: amount,
  unitPriceMinor: amount,
  idempotencyKey: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.anything()),
  prepaid: fc.oneof(fc.boolean(), fc.anything()),
  thresholdMinor: amount,
  budgetMinor: amount,
  successUrl: fc.constantFrom("https://shop.example/ok", "javascript:alert(1)", "http://127.0.0.1/", ""),
  items: fc.oneof(fc.constant([{ name: "Tea", quantity: 1, unitAmount: 300 }]), fc.array(fc.anything(), { maxLength: 3 })),
  metadata: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }), fc.anything()),
  productRef: fc.constantFrom("prd_doesnotexist", "prd_", "x"),
  expiresInSeconds: amount,
};

const structuredBody = fc.record(FIELDS, { requiredKeys: [] }).map((body) => JSON.stringify(body));

/** A body the route accepts (when it takes one), sometimes with one field replaced by anything. */
const validBody = (route: Route) =>
  route.bodies.length
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...route.bodies).map((make) => JSON.stringify(make())) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom(...route.bodies), fc.nat(), fc.anything()).map(([make, n, value]) => {
            const made = make() as Record<string, unknown>;
            const keys = Object.keys(made);
            made[keys.length ? keys[n % keys.length] : "extra"] = value;
            return JSON.stringify(made) ?? "null";
          }),
        },
      )
    : fc.constant("");

const otherBody = fc.oneof(
  { weight: 3, arbitrary: structuredBody },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "{",
      "[1,",
      "null",
      "\u0000",
      '{"a":1}}',
      "{".repeat(5000),
      "amount=100&currency=usd",
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
);

const credential = fc.oneof(
  { weight: 8, arbitrary: fc.constant(null).map(() => `Bearer ${m.testKey}`) },
  { weight: 1, arbitrary: fc.constant(null).map(() => `Bearer ${m.liveKey}`) },
  { weight: 1, arbitrary: fc.constant(null).map(() => `Bearer ${other.testKey}`) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "Bearer ", "Bearer sk_test_doesnotexist", "Basic YTpi", "bearer  x") },
);

const request = target.chain((t) =>
  fc.record({
    method: fc.constant(t.method),
    target: fc.constant(t),
    contentType: fc.oneof({ weight: 3, arbitrary: fc.constant("application/json") }, { weight: 2, arbitrary: contentType }),
    body: fc.oneof(validBody(t.route), otherBody),
    credential,
    idempotencyKey: fc.option(fc.stringMatching(/^[!-~]{1,40}$/), { nil: undefined, freq: 3 }),
  }),
);

type FuzzRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

// ---- the run ------------------------------------------------------------------------------------

interface Outcome {
  request: FuzzRequest;
  server: number;
  status: number;
  text: string;
  contentType: string;
}

async function send(r: FuzzRequest, server: number): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (r.credential !== undefined) headers.Authorization = r.credential;
  if (r.contentType) headers["Content-Type"] = r.contentType;
  if (r.idempotencyKey !== undefined) headers["Idempotency-Key"] = r.idempotencyKey;
  const withBody = r.method !== "GET" && r.method !== "HEAD";
  try {
    const res = await rawRequest(servers[server].url, r.method, r.target.path, { headers, body: withBody ? r.body : undefined });
    return { request: r, server, status: res.status, text: res.text, contentType: String(res.headers["content-type"] ?? "") };
  } catch (err) {
    // no answer, or not valid HTTP: a failure of the request, reported with the others
    return { request: r, server, status: 0, text: `(${(err as Error).message})`, contentType: "" };
  }
}

function describeOutcome(o: Outcome): string {
  const body = typeof o.request.body === "string" ? o.request.body : `<${o.request.body.length} bytes>`;
  return `instance ${o.server + 1}: ${o.request.method} ${o.request.target.path} (${o.request.contentType || "no content type"}) body=${JSON.stringify(body.slice(0, 160))} -> ${o.status} ${o.text.slice(0, 200)}`;
}

describe("fuzzing the money endpoints on two instances", () => {
  it(`${REQUESTS} random requests (seed ${SEED}): never a 5xx, every non-2xx in the error shape`, async () => {
    const requests = fc.sample(request, { seed: SEED, numRuns: REQUESTS });
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const i = next++;
          outcomes.push(await send(requests[i], i % 2)); // alternate the two instances
        }
      }),
    );

    const failures = outcomes.filter((o) => {
      if (o.status >= 500 || o.status === 0) return true;
      if (o.status >= 200 && o.status < 300) return false;
      if (o.request.method === "HEAD") return o.text !== "";
      return !o.contentType.startsWith("application/json") || !isErrorShape(o.text);
    });
    expect(failures.map(describeOutcome)).toEqual([]);

    // Not vacuous: both instances answered, and requests got through to real work as well as being refused.
    const byStatus = new Map<number, number>();
    for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
    console.info(`fuzz-money statuses: ${JSON.stringify(Object.fromEntries([...byStatus].sort(([a], [b]) => a - b)))}`);
    expect(outcomes).toHaveLength(REQUESTS);
    expect(new Set(outcomes.map((o) => o.server)).size).toBe(2);
    const count = (predicate: (status: number) => boolean) =>
      [...byStatus].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);
    expect(
      count((s) => s >= 200 && s < 300),
      JSON.stringify([...byStatus]),
    ).toBeGreaterThan(REQUESTS * 0.03);
    expect(count((s) => s === 400)).toBeGreaterThan(REQUESTS * 0.1);
    expect(count((s) => s === 404)).toBeGreaterThan(REQUESTS * 0.1);

    for (const log of logs) expect(log).not.toMatch(/unhandled error|⨯|TypeError|Internal Server Error/);
  }, 240_000);
});
