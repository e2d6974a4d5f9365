// Test merchants, made through the same domain function as the operator CLI.
import { randomBytes } from "node:crypto";
import { transaction } from "../../lib/db";
import { createMerchant } from "../../lib/merchants/create-merchant";
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
