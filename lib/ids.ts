// Prefixed, unguessable ids (docs/api-reference.md "Conventions"): prefix + 24 random base62 characters (~143 bits).
import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const ID_PREFIXES = {
  merchant: "mer",
  apiKey: "key",
  customer: "cus",
  checkout: "cs",
  paymentIntent: "pi",
  order: "ord",
  refund: "re",
  event: "evt",
  webhookEndpoint: "we",
  deliveryAttempt: "wda",
  delivery: "wdl",
  meter: "mtr",
  usageRecord: "mu",
  meterReservation: "mres",
  product: "prd",
  sharedPaymentToken: "spt",
  paidResource: "xr",
  paywallRedemption: "pwr",
  user: "usr",
  email: "mail",
  idempotency: "idem",
  request: "req",
  ledgerPosting: "lp",
  paymentAttempt: "pa",
  railCharge: "ch",
  railRefund: "rr",
  oauthGrant: "oag",
  acpCheckoutSession: "acs",
  acpSigningKey: "acpk",
  agentKey: "agk",
  agentKeyChallenge: "akc",
  agenticToken: "atk",
  agenticTokenCode: "dtvc",
  visaInstruction: "vi",
  visaCredential: "vtok",
  activity: "act",
  x402PayoutAddress: "xpa",
  invitation: "inv",
  eventStreamLease: "esl",
  dispute: "dp",
  spendingAgent: "sag",
  spendingAgentWalletChallenge: "swc",
  approvalRequest: "apr",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// Random bytes are drawn from the CSPRNG in blocks and each byte is used once: one system call per block
// instead of one per id (as Node's randomUUID does); ids are made several times per request.
const BLOCK_SIZE = 4096;
let block = Buffer.alloc(0);
let nextByte = 0;

function randomByte(): number {
  if (nextByte === block.length) {
    block = randomBytes(BLOCK_SIZE);
    nextByte = 0;
  }
  return block[nextByte++];
}

/** Random base62 string; rejection sampling keeps every character uniformly likely. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function createId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}
