// The getting-started checklist of the dashboard home: what a new merchant does first, each step done
// when the account shows it (read in one statement). Sign-up creates one key per mode whose secret is
// never shown, so "create a key" is done once the mode has a second one, made on the keys page.
import type { Db } from "../db";
import type { Scope } from "../scope";

export interface FirstRunStep {
  id: "api_key" | "checkout" | "webhook_endpoint" | "paywall";
  done: boolean;
}

export async function firstRunSteps(db: Db, scope: Scope): Promise<FirstRunStep[]> {
  const [row] = await db.$queryRaw<{ keys: number; checkout: boolean; endpoint: boolean; paywall: boolean }[]>`
    SELECT (SELECT count(*)::int FROM api_keys WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}) AS keys,
           EXISTS (SELECT 1 FROM checkouts WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}) AS checkout,
           EXISTS (SELECT 1 FROM webhook_endpoints WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}) AS endpoint,
           (EXISTS (SELECT 1 FROM meters WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode})
             OR EXISTS (SELECT 1 FROM payment_intents WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
                          AND source IN ('paywall', 'meter', 'x402', 'mpp'))) AS paywall`;
  return [
    { id: "api_key", done: row.keys > 1 },
    { id: "checkout", done: row.checkout },
    { id: "webhook_endpoint", done: row.endpoint },
    { id: "paywall", done: row.paywall },
  ];
}
