import type { Db } from "../db";
import { createId } from "../ids";
import { generateSecret, hashSecret, visiblePrefix } from "./api-key-secret";

export interface CreatedApiKey {
  id: string;
  livemode: boolean;
  /** The secret itself: returned this once, never stored. */
  secret: string;
  prefix: string;
}

export async function createApiKey(tx: Db, merchantId: string, livemode: boolean, name?: string): Promise<CreatedApiKey> {
  const secret = generateSecret(livemode);
  const key = await tx.apiKey.create({
    data: {
      id: createId("apiKey"),
      merchantId,
      livemode,
      secretHash: hashSecret(secret),
      prefix: visiblePrefix(secret),
      last4: secret.slice(-4),
      name: name ?? null,
    },
  });
  return { id: key.id, livemode, secret, prefix: key.prefix };
}
