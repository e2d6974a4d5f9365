// What Next.js answers by itself under /v1 (issue 14, item 7) is in the error contract too: a path id that
// cannot be percent-decoded, a method a route does not export or Next does not know, /v1 itself and a
// trailing slash are 404 NOT_FOUND in `{ error: { code, message, details } }`, never a bare 500 or 405.
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { isErrorShape, rawRequest } from "../helpers/raw-request";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Edges");
});

const send = (method: string, path: string, body?: string) =>
  rawRequest(baseUrl(), method, path, {
    headers: { Authorization: `Bearer ${m.testKey}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body,
  });

async function expectNotFound(method: string, path: string, body?: string) {
  const res = await send(method, path, body);
  expect(res.status, `${method} ${path} -> ${res.text.slice(0, 200)}`).toBe(404);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(isErrorShape(res.text), `${method} ${path} -> ${res.text.slice(0, 200)}`).toBe(true);
  const { error } = JSON.parse(res.text);
  expect(error.code).toBe("NOT_FOUND");
  return error as { code: string; message: string; details: Record<string, unknown> };
}

describe("broken percent-encoding in a /v1 path", () => {
  it.each([
    ["POST", "/v1/checkouts/%/cancel"],
    ["POST", "/v1/checkouts/%e2%82/cancel"],
    ["POST", "/v1/checkouts/%zz/capture"],
    ["GET", "/v1/checkouts/%"],
    ["GET", "/v1/refunds/%c3"],
    ["POST", "/v1/meters/mtr_x/reservations/%/commit"],
    ["GET", "/v1/%"],
  ])("%s %s is 404 NOT_FOUND in the error shape", async (method, path) => {
    await expectNotFound(method, path, method === "POST" ? "{}" : undefined);
  });

  it("well-formed encodings still reach the route (an id with an encoded NUL is the route's own 404)", async () => {
    const error = await expectNotFound("GET", "/v1/checkouts/%00");
    expect(error.message).toBe("No such object.");
    expect((await send("GET", "/v1/checkouts/cs_%41bc")).status).toBe(404);
  });
});

describe("a method a /v1 path does not support", () => {
  it.each([
    ["GET", "/v1/paywall/redemptions"],
    ["DELETE", "/v1/paywall/pay"],
    ["PUT", "/v1/checkouts"],
    ["PATCH", "/v1/meters/mtr_doesnotexist"],
    ["GET", "/v1/checkouts/cs_doesnotexist/capture"],
    ["DELETE", "/v1/refunds"],
    ["TRACE", "/v1/checkouts"],
    ["PROPFIND", "/v1/checkouts"],
    ["QUERY", "/v1/paywall/verify"],
  ])("%s %s answers as Stripe does: 404 Unrecognized request URL", async (method, path) => {
    const error = await expectNotFound(method, path);
    expect(error.message).toBe(`Unrecognized request URL (${method} ${path}).`);
  });

  it("HEAD of a POST-only path is a 404 too (and has no body)", async () => {
    const res = await send("HEAD", "/v1/paywall/pay");
    expect(res.status).toBe(404);
    expect(res.text).toBe("");
  });

  it("the supported methods are unchanged", async () => {
    expect((await send("GET", "/v1/checkouts")).status).toBe(200);
    const created = await send("POST", "/v1/customers", JSON.stringify({ name: "Edge" }));
    expect(created.status).toBe(201);
    expect((await send("OPTIONS", "/v1/checkouts")).status).toBe(204);
    const unauthenticated = await rawRequest(baseUrl(), "GET", "/v1/checkouts");
    expect(unauthenticated.status).toBe(401);
    expect(isErrorShape(unauthenticated.text)).toBe(true);
  });
});

describe("paths Next answers by itself", () => {
  it.each([
    ["GET", "/v1"],
    ["GET", "/v1/"],
    ["GET", "/v1/checkouts/"],
    ["POST", "/v1/nothing-here"],
    ["GET", "/v1//checkouts"],
  ])("%s %s is 404 NOT_FOUND in the error shape", async (method, path) => {
    await expectNotFound(method, path);
  });
});

describe("requests Node cannot parse", () => {
  it("a raw non-ASCII byte in the request line is 400 VALIDATION_ERROR in the error shape, not a bare 400", async () => {
    const res = await send("POST", "/v1/refunds?a=\u00e9", "{}");
    expect(res.status).toBe(400);
    expect(isErrorShape(res.text), res.text).toBe(true);
    expect(JSON.parse(res.text).error.code).toBe("VALIDATION_ERROR");
  });

  it("a HEAD request Node cannot parse gets its 400 without a body", async () => {
    const res = await send("HEAD", "/v1/refunds?a=\u00e9");
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
  });

  it("headers over Node's limit are 431 in the error shape", async () => {
    const res = await rawRequest(baseUrl(), "GET", "/v1/checkouts", { headers: { "X-Padding": "x".repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(isErrorShape(res.text), res.text).toBe(true);
  });
});
