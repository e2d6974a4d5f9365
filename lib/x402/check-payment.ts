// Offline verification of an x402 `exact` EVM payment against a merchant's requirements (docs/x402.md):
// version, scheme, network, the requirements (asset, EIP-712 domain, payTo = the merchant's address, a whole
// number of cents), then the EIP-712 TransferWithAuthorization signature (authorization-signature.ts), the recipient, the time window
// and the value. The nonce's single use is the database's (authorizations.ts). The reasons are the x402
// reference implementation's (@x402/evm) so stock clients and middleware understand them.
import { getAddress } from "viem";
import type { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { signedByFrom } from "./authorization-signature";
import { atomicToCents, SCHEME } from "./networks";
import { payableNetwork, type PayableNetwork } from "../chains/payable-networks";
import { ExactEvmPayload, PayloadV1, PayloadV2, RequirementsV1, RequirementsV2 } from "./schemas";

export type X402Version = 1 | 2;

export interface VerifiedPayment {
  ok: true;
  version: X402Version;
  network: PayableNetwork;
  /** The network as the requirements named it (CAIP-2 for v2, the v1 name for v1): answers echo it. */
  networkName: string;
  payer: `0x${string}`;
  authorization: ExactEvmPayload["authorization"];
  /** What the authorization moves, in cents (atomic units / 10,000, exact). */
  cents: number;
  /** The requirements' resource, when they named one (v1 `resource`, v2 payload `resource.url`). */
  resourceUrl: string | null;
  description: string | null;
}

export interface RefusedPayment {
  ok: false;
  reason: string;
  message: string;
  networkName: string;
  payer?: string;
}

export type PaymentCheck = VerifiedPayment | RefusedPayment;

export interface CheckInput {
  livemode: boolean;
  /** Where the merchant can be paid in this mode (payable-networks.ts): the network, its token and payTo. */
  networks: PayableNetwork[];
  /** The x402Version of the envelope (the facilitator body's; a header's own). */
  version: number;
  paymentPayload: unknown;
  paymentRequirements: unknown;
  now?: Date;
  /** Leave the time window to the caller (windowRefusal): a payment that may be one sent again. */
  skipWindow?: boolean;
  /**
   * The very payment was taken before (a hosted resource found its answer): its own terms stand (the requirements
   * are its `accepted`, its payTo the address it paid); its settlement can only answer the first one.
   */
  paidBefore?: boolean;
}

/** validBefore must leave this many seconds to settle (the reference facilitator's margin). */
const VALID_BEFORE_MARGIN_SECONDS = 6n;

function refuse(reason: string, message: string, networkName = "", payer?: string): RefusedPayment {
  return { ok: false, reason, message, networkName, ...(payer ? { payer } : {}) };
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export async function checkPayment(input: CheckInput): Promise<PaymentCheck> {
  const version = input.version;
  if (version !== 1 && version !== 2) return refuse("invalid_x402_version", `x402Version ${String(version)} is not supported (1 or 2).`);
  const payloadVersion = (input.paymentPayload as { x402Version?: unknown } | null)?.x402Version;
  if (payloadVersion !== version)
    return refuse("invalid_x402_version", `paymentPayload.x402Version ${String(payloadVersion)} differs from x402Version ${version}.`);

  // The requirements: what the merchant asks for.
  const requirements = (version === 2 ? RequirementsV2 : RequirementsV1).safeParse(input.paymentRequirements);
  if (!requirements.success) return refuse("invalid_payment_requirements", `Invalid paymentRequirements: ${issues(requirements.error)}.`);
  const req = requirements.data;
  const networkName = req.network;
  const amount = BigInt(version === 2 ? (req as RequirementsV2).amount : (req as RequirementsV1).maxAmountRequired);

  // The payload: what the payer signed.
  const parsed = version === 2 ? PayloadV2.safeParse(input.paymentPayload) : PayloadV1.safeParse(input.paymentPayload);
  if (!parsed.success) return refuse("invalid_payload", `Invalid paymentPayload: ${issues(parsed.error)}.`, networkName);
  const signed = parsed.data;
  const signedScheme = version === 2 ? (signed as PayloadV2).accepted.scheme : (signed as PayloadV1).scheme;
  const signedNetwork = version === 2 ? (signed as PayloadV2).accepted.network : (signed as PayloadV1).network;
  const exact = ExactEvmPayload.safeParse(signed.payload);
  const payer = exact.success ? getAddress(exact.data.authorization.from) : undefined;

  if (req.scheme !== SCHEME || signedScheme !== SCHEME) {
    return refuse(
      "invalid_scheme",
      `Scheme '${signedScheme !== SCHEME ? signedScheme : req.scheme}' is not supported; this facilitator settles 'exact'.`,
      networkName,
      payer,
    );
  }
  const network = payableNetwork(input.networks, req.network, version);
  if (!network) {
    const names = input.networks.map((n) => (version === 2 ? n.caip2 : n.v1Name)).filter((name) => name !== null);
    const offered = names.length ? names.join(", ") : input.livemode ? "none: no payout address on a live network" : "none";
    return refuse(
      "invalid_network",
      `Network '${req.network}' is not supported in ${input.livemode ? "live" : "test"} mode (${offered}).`,
      networkName,
      payer,
    );
  }
  if (signedNetwork !== req.network)
    return refuse(
      "invalid_exact_evm_network_mismatch",
      `The payment is for network '${signedNetwork}', the requirements for '${req.network}'.`,
      networkName,
      payer,
    );
  if (version === 2) {
    const accepted = (signed as PayloadV2).accepted;
    const echoed =
      accepted.amount === (req as RequirementsV2).amount &&
      sameAddress(accepted.asset, req.asset) &&
      sameAddress(accepted.payTo, req.payTo);
    if (!echoed)
      return refuse(
        "invalid_payload",
        "paymentPayload.accepted differs from paymentRequirements (amount, asset or payTo).",
        networkName,
        payer,
      );
  }
  if (!sameAddress(req.asset, network.asset))
    return refuse(
      "invalid_payment_requirements",
      `Asset ${req.asset} is not USDC on ${network.caip2} (${network.asset}).`,
      networkName,
      payer,
    );
  const extra = (req.extra ?? {}) as { name?: unknown; version?: unknown };
  if (typeof extra.name !== "string" || typeof extra.version !== "string") {
    return refuse(
      "invalid_exact_evm_missing_eip712_domain",
      "paymentRequirements.extra must name the token's EIP-712 domain (name, version).",
      networkName,
      payer,
    );
  }
  if (extra.name !== network.extra.name)
    return refuse("invalid_exact_evm_token_name_mismatch", `The token's EIP-712 name is '${network.extra.name}'.`, networkName, payer);
  if (extra.version !== network.extra.version)
    return refuse(
      "invalid_exact_evm_token_version_mismatch",
      `The token's EIP-712 version is '${network.extra.version}'.`,
      networkName,
      payer,
    );
  const merchantPayTo = network.payTo;
  // A payment taken before keeps the address it paid, whatever the merchant's is now (its answer is made again).
  if (!input.paidBefore && !sameAddress(req.payTo, merchantPayTo)) {
    return refuse(
      "invalid_exact_evm_recipient_mismatch",
      `payTo must be this merchant's address ${merchantPayTo} (GET /x402/supported).`,
      networkName,
      payer,
    );
  }
  const requiredCents = atomicToCents(amount);
  if (requiredCents === null || requiredCents > MAX_AMOUNT) {
    return refuse(
      "invalid_payment_requirements",
      `The amount ${amount} is not a positive whole number of cents (multiples of 10000 atomic USDC units).`,
      networkName,
      payer,
    );
  }

  if (!exact.success) return refuse("invalid_payload", `Invalid exact EVM payload: ${issues(exact.error)}.`, networkName, payer);
  const { authorization, signature } = exact.data;
  if (!sameAddress(authorization.to, req.payTo))
    return refuse(
      "invalid_exact_evm_recipient_mismatch",
      `The authorization pays ${authorization.to}, not payTo ${req.payTo}.`,
      networkName,
      payer,
    );
  const value = BigInt(authorization.value);
  if (value < amount)
    return refuse(
      "invalid_exact_evm_authorization_value",
      `The authorization moves ${value}, less than the ${amount} required.`,
      networkName,
      payer,
    );
  const cents = atomicToCents(value);
  if (cents === null || cents > MAX_AMOUNT)
    return refuse(
      "invalid_exact_evm_authorization_value",
      `The value ${value} is not a whole number of cents (multiples of 10000 atomic USDC units) up to ${MAX_AMOUNT}.`,
      networkName,
      payer,
    );

  // The signature last: the cheap checks above refuse a wrong payment without the curve's work.
  const domain = { name: extra.name, version: extra.version, chainId: network.chainId, verifyingContract: network.asset };
  const signatureValid = await signedByFrom(domain, authorization, signature);
  if (!signatureValid)
    return refuse("invalid_exact_evm_signature", "The EIP-712 signature does not verify for authorization.from.", networkName, payer);
  const resourceUrl = version === 2 ? ((signed as PayloadV2).resource?.url ?? null) : ((req as RequirementsV1).resource ?? null);
  const description = version === 2 ? ((signed as PayloadV2).resource?.description ?? null) : ((req as RequirementsV1).description ?? null);
  const payment: VerifiedPayment = {
    ok: true,
    version,
    network,
    networkName,
    payer: getAddress(authorization.from),
    authorization,
    cents,
    resourceUrl,
    description,
  };
  // The time window: live mode leaves it to the official scheme's check against the chain, and a payment sent again
  // (a lost answer) is checked for its first result before it (replays.ts), so both may skip it here.
  return input.livemode || input.skipWindow ? payment : (windowRefusal(payment, input.now) ?? payment);
}

/** The authorization's time window (validAfter, validBefore with the settling margin) against now; null when open. */
export function windowRefusal(payment: VerifiedPayment, at?: Date): RefusedPayment | null {
  const { authorization, networkName, payer } = payment;
  const now = BigInt(Math.floor((at ?? new Date()).getTime() / 1000));
  if (BigInt(authorization.validBefore) < now + VALID_BEFORE_MARGIN_SECONDS)
    return refuse(
      "invalid_exact_evm_payload_authorization_valid_before",
      "The authorization has expired (validBefore).",
      networkName,
      payer,
    );
  if (BigInt(authorization.validAfter) > now)
    return refuse(
      "invalid_exact_evm_payload_authorization_valid_after",
      "The authorization is not valid yet (validAfter).",
      networkName,
      payer,
    );
  return null;
}
