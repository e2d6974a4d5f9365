// Where a merchant's live x402 money goes (docs/x402.md, "Going live"): one address per live network, to be the
// payTo of its live resources and of the facilitator's live settlements once live settlement lands. The money
// never passes through the service; these rows only redirect it, so setting one is guarded: an owner in the
// dashboard, or a live secret key an owner made (or the merchant's own first key; never a restricted key, nor a
// key a developer or admin made), a replaced address kept as history, every change mailed to all owners and
// written to the account activity log, all in the change's transaction.
import { getAddress, isAddress, zeroAddress } from "viem";
import { z } from "zod";
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { liveNetwork, liveNetworks } from "../chains/live-networks";
import type { Db } from "../db";
import { DomainError, ForbiddenError, ValidationError } from "../errors";
import { createId } from "../ids";
import { queueMail } from "../mail/outbox";
import type { Caller } from "../scope";
import { Timestamp } from "../validation/objects";

export const SetPayoutAddressBody = z
  .object({
    network: z.string().min(1).max(64),
    address: z.string().min(1).max(64),
  })
  .strict();
export type SetPayoutAddressInput = z.output<typeof SetPayoutAddressBody>;

export const PayoutAddressObject = z
  .object({
    id: z.string(),
    object: z.literal("x402_payout_address"),
    network: z.string(),
    address: z.string(),
    livemode: z.literal(true),
    createdAt: Timestamp,
  })
  .meta({ id: "X402PayoutAddress" });

export const PayoutAddressList = z
  .object({ object: z.literal("list"), data: z.array(PayoutAddressObject), hasMore: z.boolean() })
  .meta({ id: "X402PayoutAddressList" });

interface PayoutRow {
  id: string;
  network: string;
  address: string;
  created_at: Date;
}

const serialize = (row: PayoutRow) => ({
  id: row.id,
  object: "x402_payout_address" as const,
  network: row.network,
  address: row.address,
  livemode: true as const,
  createdAt: row.created_at.toISOString(),
});

/** Payout addresses are live money's: a test key is told there is no such thing (404, as for another mode's object). */
function requireLive(caller: Caller): void {
  if (!caller.livemode) throw new DomainError("NOT_FOUND", "Payout addresses exist in live mode only: use a live key (sk_live_...).", {});
}

/** Who changes where the money goes, as the activity log and the owners' mail name them. */
export interface PayoutChangeBy {
  /** The API key that made the change, or the dashboard user. */
  apiKeyId?: string;
  userId?: string;
  origin?: RequestOrigin;
}

/**
 * Sets the merchant's payout address of a live network, replacing the current one (kept as history). The
 * merchant's row is locked first, so two changes of one merchant apply one after the other.
 */
export async function setPayoutAddress(tx: Db, caller: Caller, input: SetPayoutAddressInput, by: PayoutChangeBy) {
  requireLive(caller);
  if (caller.permissions)
    throw new ForbiddenError("A restricted key cannot change where live money goes: use a secret key, or an owner in the dashboard.", {
      reason: "secret_key_required",
    });
  if (by.apiKeyId) await requireOwnersKey(tx, by.apiKeyId);
  const network = liveNetwork(input.network);
  if (!network || network.caip2 !== input.network) {
    const offered = liveNetworks().map((n) => n.caip2);
    throw new ValidationError("Not a live network of this deployment.", [
      {
        path: "network",
        message: offered.length ? `one of ${offered.join(", ")}` : "this deployment settles on no live network (X402_RPC_URLS)",
      },
    ]);
  }
  // EIP-55: all lower or all upper case carries no checksum; mixed case must be the checksum.
  const given = /^0x[0-9A-F]{40}$/.test(input.address) ? input.address.toLowerCase() : input.address;
  if (!isAddress(given, { strict: true }) || getAddress(given) === zeroAddress)
    throw new ValidationError("Not an EVM address.", [
      { path: "address", message: "a 0x address of 40 hex digits, checksummed when mixed-case, not the zero address" },
    ]);
  const address = getAddress(given);

  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${caller.merchantId} FOR NO KEY UPDATE`;
  // Times read once the lock is held (clock_timestamp, not the transaction's start): changes that waited on
  // the lock keep the order in which they applied.
  const replaced = await tx.$queryRaw<{ address: string }[]>`
    UPDATE x402_payout_addresses SET replaced_at = clock_timestamp()
     WHERE merchant_id = ${caller.merchantId} AND network = ${network.caip2} AND replaced_at IS NULL
    RETURNING address`;
  const [row] = await tx.$queryRaw<PayoutRow[]>`
    INSERT INTO x402_payout_addresses (id, merchant_id, network, address, created_at)
    VALUES (${createId("x402PayoutAddress")}, ${caller.merchantId}, ${network.caip2}, ${address}, clock_timestamp())
    RETURNING id, network, address, created_at`;
  const previous = replaced[0]?.address ?? null;
  await recordActivity(tx, {
    action: "x402_payout_address.set",
    merchantId: caller.merchantId,
    userId: by.userId ?? null,
    origin: by.origin,
    detail: { network: network.caip2, address, previous, apiKeyId: by.apiKeyId ?? null },
  });
  await mailOwners(tx, caller.merchantId, network.caip2, address, previous);
  return serialize(row);
}

/**
 * A live secret key may redirect live money only if an owner made it (or it came with the merchant, made by
 * no one in the dashboard): a developer may make live keys, and must not be able to move the money with one.
 */
async function requireOwnersKey(tx: Db, apiKeyId: string): Promise<void> {
  const [key] = await tx.$queryRaw<{ created_by_role: string | null }[]>`SELECT created_by_role FROM api_keys WHERE id = ${apiKeyId}`;
  if (key?.created_by_role && key.created_by_role !== "owner")
    throw new ForbiddenError(
      `This key was made by a ${key.created_by_role}: only a key an owner made (or an owner in the dashboard) changes where live money goes.`,
      { reason: "owner_key_required" },
    );
}

/** Every owner hears of a change of where the money goes, whoever made it. */
async function mailOwners(tx: Db, merchantId: string, network: string, address: string, previous: string | null) {
  const owners = await tx.$queryRaw<{ email: string; name: string }[]>`
    SELECT u.email, m.name FROM memberships ms
      JOIN users u ON u.id = ms.user_id
      JOIN merchants m ON m.id = ms.merchant_id
     WHERE ms.merchant_id = ${merchantId} AND ms.role = 'owner'`;
  for (const owner of owners) {
    await queueMail(tx, {
      to: owner.email,
      kind: "x402_payout_address_changed",
      subject: `${owner.name}: live x402 payments on ${network} now go to ${address}`,
      text: [
        `The payout address of ${owner.name} for live x402 payments on ${network} was changed.`,
        "",
        `New address: ${address}`,
        `Previous address: ${previous ?? "none"}`,
        "",
        "Every live payment on this network is now paid straight to the new address. If you did not make or expect",
        "this change, set the address back and revoke the key or sign out the user that made it.",
      ].join("\n"),
    });
  }
}

/** The merchant's current payout addresses, one per network. */
export async function listPayoutAddresses(db: Db, caller: Caller) {
  requireLive(caller);
  const rows = await db.$queryRaw<PayoutRow[]>`
    SELECT id, network, address, created_at FROM x402_payout_addresses
     WHERE merchant_id = ${caller.merchantId} AND replaced_at IS NULL
     ORDER BY created_at DESC`;
  return { object: "list" as const, data: rows.map(serialize), hasMore: false };
}

/** Where the merchant's live money on `network` goes, if it has said so. */
export async function payoutAddressFor(db: Db, merchantId: string, network: string): Promise<`0x${string}` | null> {
  const rows = await db.$queryRaw<{ address: `0x${string}` }[]>`
    SELECT address FROM x402_payout_addresses WHERE merchant_id = ${merchantId} AND network = ${network} AND replaced_at IS NULL`;
  return rows[0]?.address ?? null;
}
