// x402 `upto` (docs/x402.md, "Usage-priced resources"): the payer signs a Permit2 witness transfer of at most the
// resource's maximum to the x402 upto proxy (@x402/evm's `upto` scheme), and is charged what the merchant's server
// reports it used. Here: the requirements a hosted upto resource advertises, and the offline check of the payload
// (test mode: no chain) with the official scheme's checks and reasons (@x402/evm/upto/facilitator's verify), its
// constants and EIP-712 types; live mode settles it through Permit2 on chain (settle-upto-on-chain.ts).
import { PERMIT2_ADDRESS, uptoPermit2WitnessTypes, x402UptoPermit2ProxyAddress } from "@x402/evm";
import { getAddress, keccak256, toHex, verifyTypedData } from "viem";
import { z } from "zod";
import type { PaidResource } from "../generated/prisma/client";
import { MAX_AMOUNT } from "../money/limits";
import { payableNetwork, type PayableNetwork } from "../chains/payable-networks";
import { facilitatorAddress } from "./chain-facilitator";
import type { RefusedPayment } from "./check-payment";
import { atomicToCents, centsToAtomic, MAX_TIMEOUT_SECONDS } from "./networks";
import { PayloadV2, RequirementsV2 } from "./schemas";

export const UPTO = "upto";
/** The Permit2 nonce of an upto authorization was spent (the reason @x402/evm's facilitator gives). */
export const UPTO_NONCE_USED = "permit2_invalid_nonce";
/** A settlement above the authorized maximum (the official facilitator's reason). */
export const UPTO_SETTLEMENT_EXCEEDS = "invalid_upto_evm_payload_settlement_exceeds_amount";
/** The deadline must leave this many seconds to settle (the official facilitator's margin). */
const DEADLINE_MARGIN_SECONDS = 6n;

/**
 * The facilitator the payer binds its authorization to (witness.facilitator): in test mode a fixed address naming
 * this service (no chain: nobody holds its key), announced in the requirements' extra.facilitatorAddress.
 */
export const TEST_UPTO_FACILITATOR: `0x${string}` = getAddress(
  `0x${keccak256(toHex("agent-payments/x402/upto/facilitator/test")).slice(-40)}`,
);

/** The facilitator an authorization of this mode must name: test mode's fixed address, or the live facilitator account. */
export function uptoFacilitator(livemode: boolean): `0x${string}` {
  return livemode ? facilitatorAddress() : TEST_UPTO_FACILITATOR;
}

const Uint = z.string().regex(/^\d{1,78}$/, "must be an unsigned integer in decimal");
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 20-byte hex address");
/** The `upto` EVM payload (scheme_upto_evm.md): the Permit2 witness transfer and its EIP-712 signature. */
export const UptoEvmPayload = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]{2,4096}$/, "must be a hex signature"),
  permit2Authorization: z.object({
    from: Address,
    permitted: z.object({ token: Address, amount: Uint }),
    spender: Address,
    nonce: z.string().regex(/^(\d{1,78}|0x[0-9a-fA-F]{1,64})$/, "must be a uint256"),
    deadline: Uint,
    witness: z.object({ to: Address, facilitator: Address, validAfter: Uint }),
  }),
});
export type UptoEvmPayload = z.output<typeof UptoEvmPayload>;

export interface VerifiedUpto {
  ok: true;
  network: PayableNetwork;
  networkName: string;
  payer: `0x${string}`;
  /** The Permit2 nonce, in decimal (Permit2's nonces are the owner's, whatever the token). */
  nonce: string;
  /** The most the authorization may move, in cents. */
  maxCents: number;
  /** Unix seconds: the authorization cannot be settled after it. */
  deadline: bigint;
  validAfter: bigint;
  resourceUrl: string | null;
  description: string | null;
}

/** The v2 requirements of an upto resource on each network (upto is an x402 v2 scheme: no v1 requirements). */
export function uptoRequirements(resource: PaidResource, networks: PayableNetwork[]) {
  return networks.map((network) => ({
    scheme: UPTO,
    network: network.caip2,
    amount: centsToAtomic(resource.maxAmount ?? resource.amount).toString(),
    asset: network.asset,
    payTo: network.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...network.extra, facilitatorAddress: uptoFacilitator(resource.livemode) },
  }));
}

function refuse(reason: string, message: string, networkName: string, payer?: string): RefusedPayment {
  return { ok: false, reason, message, networkName, ...(payer ? { payer } : {}) };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What the check reads of the requirements: the network, the maximum (atomic units), the token and payTo. */
export type UptoTerms = Pick<ReturnType<typeof uptoRequirements>[number], "network" | "amount" | "asset" | "payTo">;

export interface UptoCheck {
  networks: PayableNetwork[];
  paymentPayload: unknown;
  /** The resource's requirements the payload names (its `accepted` must echo them). */
  requirements: UptoTerms | undefined;
  /** The facilitator the authorization must be bound to (witness.facilitator); default: test mode's. */
  facilitator?: `0x${string}`;
  /** Paid before (its answer is made again): the deadline is not checked. */
  paidBefore?: boolean;
  now?: Date;
}

/** The upto payload against the resource's requirements, as @x402/evm's upto facilitator verifies it, without a chain. */
export async function checkUptoPayment(input: UptoCheck): Promise<VerifiedUpto | RefusedPayment> {
  const parsed = PayloadV2.safeParse(input.paymentPayload);
  if (!parsed.success) return refuse("invalid_payload", "Invalid paymentPayload: not an x402 v2 PaymentPayload.", "");
  const { accepted } = parsed.data;
  const req = input.requirements;
  const networkName = accepted.network;
  const upto = UptoEvmPayload.safeParse(parsed.data.payload);
  const payer = upto.success ? getAddress(upto.data.permit2Authorization.from) : undefined;
  if (accepted.scheme !== UPTO || !req)
    return refuse("invalid_upto_evm_scheme", "This resource is paid with scheme 'upto'.", networkName, payer);
  const network = payableNetwork(input.networks, req.network, 2);
  if (!network || accepted.network !== req.network)
    return refuse(
      "invalid_upto_evm_network_mismatch",
      `The payment is for '${accepted.network}', the requirements for '${req.network}'.`,
      networkName,
      payer,
    );
  const echoed = RequirementsV2.safeParse(accepted);
  if (!echoed.success || echoed.data.amount !== req.amount || !same(echoed.data.asset, req.asset) || !same(echoed.data.payTo, req.payTo))
    return refuse("invalid_payload", "paymentPayload.accepted differs from the requirements (amount, asset or payTo).", networkName, payer);
  if (!upto.success) return refuse("invalid_payload", "Invalid upto EVM payload (signature, permit2Authorization).", networkName, payer);
  const auth = upto.data.permit2Authorization;
  if (!same(auth.spender, x402UptoPermit2ProxyAddress))
    return refuse("invalid_permit2_spender", `The spender must be the x402 upto proxy ${x402UptoPermit2ProxyAddress}.`, networkName, payer);
  if (!same(auth.witness.to, req.payTo))
    return refuse(
      "invalid_permit2_recipient_mismatch",
      `The authorization pays ${auth.witness.to}, not payTo ${req.payTo}.`,
      networkName,
      payer,
    );
  const facilitator = input.facilitator ?? TEST_UPTO_FACILITATOR;
  if (!same(auth.witness.facilitator, facilitator))
    return refuse(
      "upto_facilitator_mismatch",
      `witness.facilitator must be ${facilitator} (extra.facilitatorAddress).`,
      networkName,
      payer,
    );
  const now = BigInt(Math.floor((input.now ?? new Date()).getTime() / 1000));
  const deadline = BigInt(auth.deadline);
  const validAfter = BigInt(auth.witness.validAfter);
  if (!input.paidBefore && deadline < now + DEADLINE_MARGIN_SECONDS) return deadlineExpired(networkName, payer);
  if (validAfter > now)
    return refuse("permit2_not_yet_valid", "The authorization is not valid yet (witness.validAfter).", networkName, payer);
  if (auth.permitted.amount !== req.amount)
    return refuse(
      "permit2_amount_mismatch",
      `The authorization permits ${auth.permitted.amount}, the maximum is ${req.amount}.`,
      networkName,
      payer,
    );
  if (!same(auth.permitted.token, req.asset))
    return refuse("permit2_token_mismatch", `The authorization is for ${auth.permitted.token}, not ${req.asset}.`, networkName, payer);
  const maxCents = atomicToCents(BigInt(req.amount));
  if (maxCents === null || maxCents > MAX_AMOUNT)
    return refuse("invalid_payment_requirements", `The maximum ${req.amount} is not a whole number of cents.`, networkName, payer);
  let valid = false;
  try {
    valid = await verifyTypedData({
      address: getAddress(auth.from),
      domain: { name: "Permit2", chainId: network.chainId, verifyingContract: PERMIT2_ADDRESS },
      types: uptoPermit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: getAddress(auth.permitted.token), amount: BigInt(auth.permitted.amount) },
        spender: getAddress(auth.spender),
        nonce: BigInt(auth.nonce),
        deadline,
        witness: { to: getAddress(auth.witness.to), facilitator: getAddress(auth.witness.facilitator), validAfter },
      },
      signature: upto.data.signature as `0x${string}`,
    });
  } catch {
    valid = false; // not a signature at all
  }
  if (!valid)
    return refuse("invalid_permit2_signature", "The Permit2 signature does not verify for permit2Authorization.from.", networkName, payer);
  return {
    ok: true,
    network,
    networkName,
    payer: getAddress(auth.from),
    nonce: BigInt(auth.nonce).toString(),
    maxCents,
    deadline,
    validAfter,
    resourceUrl: parsed.data.resource?.url ?? null,
    description: parsed.data.resource?.description ?? null,
  };
}

function deadlineExpired(networkName: string, payer?: string): RefusedPayment {
  return refuse("permit2_deadline_expired", "The authorization has expired (deadline).", networkName, payer);
}

/** The deadline of an authorization checked without it (`paidBefore`: a payment that may be one sent again); null when open. */
export function uptoDeadlineRefusal(payment: VerifiedUpto, at?: Date): RefusedPayment | null {
  const now = BigInt(Math.floor((at ?? new Date()).getTime() / 1000));
  return payment.deadline < now + DEADLINE_MARGIN_SECONDS ? deadlineExpired(payment.networkName, payment.payer) : null;
}
