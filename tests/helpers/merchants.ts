// Test merchants, made through the same domain function as the operator CLI.
import { randomBytes } from "node:crypto";
import { getDb, transaction } from "../../lib/db";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { createMerchant } from "../../lib/merchants/create-merchant";
import { normalizePermissions } from "../../lib/merchants/permissions";
import { call } from "./http";

export interface TestMerchant {
  merchantId: string;
  testKey: string;
  liveKey: string;
}

export async function createTestMerchant(name = "Test merchant"): Promise<TestMerchant> {
  const created = await transaction((tx) => createMerchant(tx, { name }));
  return { merchantId: created.merchantId, testKey: created.testSecretKey, liveKey: created.liveSecretKey };
}

/** Gives the merchant a live payout address on the test server's live network (Base Sepolia, UNREACHABLE_LIVE_CHAIN), so it may make live paid resources. */
export async function livePayable(merchant: TestMerchant, base?: string): Promise<string> {
  const address = `0x${randomBytes(20).toString("hex")}`;
  const res = await call("POST", "/v1/x402/payout_addresses", { base, key: merchant.liveKey, body: { network: "eip155:84532", address } });
  if (res.status !== 201) throw new Error(`payout address: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.address;
}

/** A restricted key of the merchant's (test mode) with these grants: its secret and id. */
export async function restrictedTestKey(merchant: TestMerchant, permissions: Record<string, string>) {
  const scope = { merchantId: merchant.merchantId, livemode: false };
  return transaction((tx) => createScopedApiKey(tx, scope, { permissions: normalizePermissions(permissions) }, { via: "cli" }));
}

/** Empties the API key's rate-limit bucket (the Postgres buckets) for an hour: its next request is 429. */
export async function drainKeyBucket(apiKeyId: string): Promise<void> {
  await getDb().$executeRaw`
    INSERT INTO rate_limit_buckets (key, tokens, allowed, updated_at) VALUES (${`key:${apiKeyId}`}, 0, false, now() + interval '1 hour')
    ON CONFLICT (key) DO UPDATE SET tokens = 0, allowed = false, updated_at = EXCLUDED.updated_at`;
}
