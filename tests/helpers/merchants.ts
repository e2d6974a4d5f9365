// Test merchants, made through the same domain function as the operator CLI.
import { transaction } from "../../lib/db";
import { createMerchant } from "../../lib/merchants/create-merchant";

export interface TestMerchant {
  merchantId: string;
  testKey: string;
  liveKey: string;
}

export async function createTestMerchant(name = "Test merchant"): Promise<TestMerchant> {
  const created = await transaction((tx) => createMerchant(tx, { name }));
  return { merchantId: created.merchantId, testKey: created.testSecretKey, liveKey: created.liveSecretKey };
}
