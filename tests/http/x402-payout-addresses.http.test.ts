// Live x402's payout addresses (docs/x402.md, "Going live"): where a merchant's live money goes, per live
// network of the deployment. Against a server configured with a live network (Base Sepolia's public USDC; no
// chain is called here): a live secret key sets and lists them, a replaced address stays as history, every
// owner is mailed and the activity log has the change; a test key gets 404, a restricted key may read but never
// set them, nor a live key a developer made; bad networks and addresses are 400 (an all-caps address is fine);
// concurrent changes of one merchant apply one after the other, their history in that order.
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { createApiKey } from "../../lib/merchants/create-api-key";
import { normalizePermissions } from "../../lib/merchants/permissions";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { dashboardCall, dashboardMerchant, dashboardPage } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";
import { newMember, sql } from "../helpers/team";

const NETWORK = "eip155:84532";
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;

let server: ServerProcess;
let merchant: TestMerchant;
const request = (method: string, path: string, options: Parameters<typeof call>[2] = {}) =>
  call(method, path, { ...options, base: server.url });

beforeAll(async () => {
  server = await startTestServer({
    X402_RPC_URLS: JSON.stringify({ [NETWORK]: "http://127.0.0.1:9/rpc" }),
    X402_FACILITATOR_PRIVATE_KEY: generatePrivateKey(),
  });
  merchant = await createTestMerchant("Payout addresses");
});

afterAll(async () => {
  await server?.stop();
});

async function addOwner(merchantId: string, email: string) {
  const userId = `usr_payout_${Math.random().toString(36).slice(2)}`;
  await sql("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')", [userId, email]);
  await sql("INSERT INTO memberships (merchant_id, user_id, role) VALUES ($1, $2, 'owner')", [merchantId, userId]);
}

describe("payout addresses", () => {
  it("each deployment lists exactly its configured live networks", async () => {
    const here = await request("GET", "/v1/integrations", { key: merchant.liveKey });
    expect(here.body.data.find((entry: { id: string }) => entry.id === "x402").networks).toEqual({ test: NETWORK, live: [NETWORK] });
    const elsewhere = await call("GET", "/v1/integrations", { key: merchant.liveKey });
    // The shared test server: Base Sepolia only (tests/helpers/server.ts UNREACHABLE_LIVE_CHAIN).
    expect(elsewhere.body.data.find((entry: { id: string }) => entry.id === "x402").networks.live).toEqual(["eip155:84532"]);
  });

  it("a live key sets one (checksummed), lists it, and a second replaces it; history kept; owners mailed; logged", async () => {
    const m = await createTestMerchant("Payout owner mail");
    const ownerEmail = `owner-${Date.now()}@example.com`;
    await addOwner(m.merchantId, ownerEmail);
    const first = newAddress();
    const created = await request("POST", "/v1/x402/payout_addresses", {
      key: m.liveKey,
      body: { network: NETWORK, address: first.toLowerCase() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^xpa_/),
      object: "x402_payout_address",
      network: NETWORK,
      address: first,
      livemode: true,
      createdAt: expect.any(String),
    });
    const second = newAddress();
    expect(
      (await request("POST", "/v1/x402/payout_addresses", { key: m.liveKey, body: { network: NETWORK, address: second } })).status,
    ).toBe(201);
    const listed = await request("GET", "/v1/x402/payout_addresses", { key: m.liveKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: { address: string }) => row.address)).toEqual([second]);
    const rows = await sql("SELECT address, replaced_at FROM x402_payout_addresses WHERE merchant_id = $1 ORDER BY created_at", [
      m.merchantId,
    ]);
    expect(rows.map((row) => [row.address, row.replaced_at === null])).toEqual([
      [first, false],
      [second, true],
    ]);
    const mails = await sql(
      "SELECT subject, text_body FROM email_outbox WHERE \"to\" = $1 AND kind = 'x402_payout_address_changed' ORDER BY created_at",
      [ownerEmail],
    );
    expect(mails).toHaveLength(2);
    expect(mails[1].text_body).toContain(`New address: ${second}`);
    expect(mails[1].text_body).toContain(`Previous address: ${first}`);
    const logged = await sql(
      "SELECT detail FROM account_activity WHERE merchant_id = $1 AND action = 'x402_payout_address.set' ORDER BY created_at",
      [m.merchantId],
    );
    expect(logged.map((row) => row.detail)).toMatchObject([
      { network: NETWORK, address: first, previous: null },
      { network: NETWORK, address: second, previous: first },
    ]);
  });

  it("a test key is told they do not exist (404), for reading and setting", async () => {
    for (const res of [
      await request("GET", "/v1/x402/payout_addresses", { key: merchant.testKey }),
      await request("POST", "/v1/x402/payout_addresses", { key: merchant.testKey, body: { network: NETWORK, address: newAddress() } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("a restricted live key reads them with a grant, and is refused setting them even with a write grant", async () => {
    const key = (permissions: Record<string, string>) =>
      transaction((tx) => createApiKey(tx, merchant.merchantId, true, "agent", { permissions: normalizePermissions(permissions) }));
    const writer = await key({ payout_addresses: "write" });
    const refused = await request("POST", "/v1/x402/payout_addresses", {
      key: writer.secret,
      body: { network: NETWORK, address: newAddress() },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.reason).toBe("secret_key_required");
    const reader = await key({ payout_addresses: "read" });
    expect((await request("GET", "/v1/x402/payout_addresses", { key: reader.secret })).status).toBe(200);
    const none = await key({ orders: "read" });
    expect((await request("GET", "/v1/x402/payout_addresses", { key: none.secret })).status).toBe(403);
  });

  it("takes an address in all capitals (no checksum), answered checksummed", async () => {
    const address = newAddress();
    const res = await request("POST", "/v1/x402/payout_addresses", {
      key: merchant.liveKey,
      body: { network: NETWORK, address: `0x${address.slice(2).toUpperCase()}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.address).toBe(address);
  });

  it("refuses a network the deployment does not settle on, and what is not an address, with 400 naming the field", async () => {
    const good = newAddress();
    const mixedCaseWrong =
      good.slice(0, 2) +
      [...good.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join("");
    const cases: [unknown, string][] = [
      [{ network: "eip155:8453", address: good }, "network"],
      [{ network: "base-sepolia", address: good }, "network"],
      [{ network: NETWORK, address: "0x1234" }, "address"],
      [{ network: NETWORK, address: `0x${"0".repeat(40)}` }, "address"],
      [{ network: NETWORK, address: mixedCaseWrong }, "address"],
      [{ network: NETWORK }, "address"],
      [{ network: NETWORK, address: good, extra: 1 }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await request("POST", "/v1/x402/payout_addresses", { key: merchant.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      if (field) expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(field);
    }
  });

  it("ten concurrent changes of one merchant apply one after the other: one current address, ten rows", async () => {
    const m = await createTestMerchant("Payout concurrency");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        request("POST", "/v1/x402/payout_addresses", { key: m.liveKey, body: { network: NETWORK, address: newAddress() } }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
    const rows = await sql<{ created_at: Date; replaced_at: Date | null }>(
      "SELECT created_at, replaced_at FROM x402_payout_addresses WHERE merchant_id = $1 ORDER BY created_at",
      [m.merchantId],
    );
    expect(rows).toHaveLength(10);
    expect(rows.filter((row) => row.replaced_at === null)).toHaveLength(1);
    // The history in the order the changes applied: each address replaced when the next one was set, the last current.
    rows.forEach((row, i) => {
      if (i === rows.length - 1) return expect(row.replaced_at).toBeNull();
      expect(row.replaced_at!.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
      expect(rows[i + 1].created_at.getTime()).toBeGreaterThanOrEqual(row.replaced_at!.getTime());
    });
  });

  it("in the dashboard: an owner with two-factor sign-in sets one in live mode; without it, or as an admin, or in test mode, refused", async () => {
    const plain = await dashboardMerchant("Payout dashboard no 2FA", { base: server.url });
    const body = { network: NETWORK, address: newAddress() };
    const path = "/api/dashboard/x402/payout-addresses";
    const noTwoFactor = await dashboardCall(plain.session, "POST", path, { body, csrfToken: plain.csrfToken, mode: "live" });
    expect(noTwoFactor.status).toBe(403);
    expect(noTwoFactor.body.error.details.reason).toBe("two_factor_required");

    const owner = await dashboardMerchant("Payout dashboard owner", { twoFactor: true, base: server.url });
    const inTest = await dashboardCall(owner.session, "POST", path, { body, csrfToken: owner.csrfToken, mode: "test" });
    expect(inTest.status).toBe(404);
    const set = await dashboardCall(owner.session, "POST", path, { body, csrfToken: owner.csrfToken, mode: "live" });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    expect(set.body).toMatchObject({ object: "x402_payout_address", network: NETWORK, address: body.address, livemode: true });
    const logged = await sql(
      "SELECT user_id, detail FROM account_activity WHERE action = 'x402_payout_address.set' AND detail->>'address' = $1",
      [body.address],
    );
    expect(logged).toHaveLength(1);
    expect(logged[0].user_id).toEqual(expect.any(String));

    const page = await dashboardPage(owner.session, "/dashboard/settings");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Live x402 payout addresses");

    const owners = { session: owner.session, csrfToken: owner.csrfToken, email: "", password: "" };
    // A live key an owner made may set them; one a developer made may not (developers make live keys without a second factor).
    const ownersKey = await dashboardCall(owner.session, "POST", "/api/dashboard/api-keys", {
      body: { name: "owner's" },
      csrfToken: owner.csrfToken,
      mode: "live",
    });
    expect(ownersKey.status).toBe(201);
    const byOwnersKey = await request("POST", "/v1/x402/payout_addresses", {
      key: ownersKey.body.secret,
      body: { network: NETWORK, address: newAddress() },
    });
    expect(byOwnersKey.status).toBe(201);
    const developer = await newMember(owners, "developer");
    const developersKey = await dashboardCall(developer.session, "POST", "/api/dashboard/api-keys", {
      body: { name: "developer's" },
      csrfToken: developer.csrfToken,
      mode: "live",
    });
    expect(developersKey.status, JSON.stringify(developersKey.body)).toBe(201);
    const byDevelopersKey = await request("POST", "/v1/x402/payout_addresses", {
      key: developersKey.body.secret,
      body: { network: NETWORK, address: newAddress() },
    });
    expect(byDevelopersKey.status).toBe(403);
    expect(byDevelopersKey.body.error.details.reason).toBe("owner_key_required");

    const admin = await newMember(owners, "admin");
    const byAdmin = await dashboardCall(admin.session, "POST", path, { body, csrfToken: admin.csrfToken, mode: "live" });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.details).toMatchObject({ reason: "role_required", role: "owner" });
  });
});
