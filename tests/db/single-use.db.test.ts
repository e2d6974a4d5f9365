// lockSingleUse (lib/single-use.ts): the one lock of every credential a payment spends once. While one transaction
// holds a credential, another is told at once (false), never queued; the kinds keep equal keys apart; the lock
// ends with its transaction, committed or rolled back.
import { describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { lockSingleUse } from "../../lib/single-use";

/** Runs `inside` while a transaction holds `key` (of kind spt), then ends it (rolled back when `rollback`). */
async function whileHeld(key: string, inside: () => Promise<void>, rollback = false) {
  const holding = transaction(async (tx) => {
    expect(await lockSingleUse(tx, "spt", key)).toBe(true);
    await inside();
    if (rollback) throw new Error("roll back");
  });
  await (rollback ? expect(holding).rejects.toThrow("roll back") : holding);
}

const tryLock = (kind: "spt" | "mpp", key: string) => transaction((tx) => lockSingleUse(tx, kind, key));

describe("lockSingleUse", () => {
  it("refuses a second transaction at once while the first holds the credential, and frees it at commit", async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    await whileHeld(key, async () => {
      const started = Date.now();
      expect(await tryLock("spt", key)).toBe(false);
      expect(Date.now() - started).toBeLessThan(2_000); // told, not queued
      expect(await tryLock("mpp", key)).toBe(true); // another kind, another credential
    });
    expect(await tryLock("spt", key)).toBe(true);
  });

  it("frees the credential when the holder rolls back", async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    await whileHeld(key, async () => expect(await tryLock("spt", key)).toBe(false), true);
    expect(await tryLock("spt", key)).toBe(true);
  });
});
