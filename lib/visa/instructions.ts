// Visa Intelligent Commerce, test mode (docs/cards.md "Visa: instructions and credentials"): the payer records the
// consumer's purchase instruction (vi_) for one of its Visa agent keys, with mandates (spend cap per credential,
// validity, merchant). Without a verified passkey assurance it waits in `pending_authentication` until the
// test-mode passkey step; the agent then draws single-use credentials (vtok_) against it with a signed request
// (tag credential-request), refused outside the mandates; confirmations record the outcome.
import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import { requireVerifiedAgent } from "../agent-identity/signed-request";
import { declined } from "../card-networks/declines";
import { checkCapturable } from "../checkouts/check-capturable";
import type { Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import type { VisaCredential, VisaInstruction } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import type { CreateInstructionInput, CredentialRequestInput, ListInstructionsQuery, Mandate } from "./schemas";

export const CREDENTIAL_LIFETIME_MS = 15 * 60_000;

export function serializeInstruction(i: VisaInstruction) {
  return {
    id: i.id,
    object: "visa_instruction" as const,
    status: i.status,
    ...(i.status === "pending_authentication" ? { pendingEvents: ["passkey_authentication"] } : {}),
    agentKeyId: i.agentKeyId,
    paymentMethod: i.paymentMethod,
    mandates: i.mandates as Mandate[],
    assuranceData: i.assuranceData ?? null,
    spendingAgentId: i.spendingAgentId,
    livemode: i.livemode,
    createdAt: i.createdAt.toISOString(),
  };
}

export function serializeCredential(c: VisaCredential, extra: { cryptogram?: string } = {}) {
  const expired = c.status === "active" && c.expiresAt.getTime() <= Date.now();
  return {
    id: c.id,
    object: "visa_credential" as const,
    instructionId: c.instructionId,
    status: expired ? "expired" : c.status,
    merchantId: c.merchantId,
    amount: c.amount,
    currency: c.currency,
    last4: "4242",
    paymentAccountReference: `V001${createHash("sha256").update(c.instructionId).digest("hex").slice(0, 25).toUpperCase()}`,
    ...extra,
    paymentIntentId: c.paymentIntentId,
    confirmation: c.confirmation,
    expiresAt: c.expiresAt.toISOString(),
    livemode: c.livemode,
    createdAt: c.createdAt.toISOString(),
  };
}

export async function findInstruction(db: Db, payer: Scope, id: string): Promise<VisaInstruction> {
  const i = await db.visaInstruction.findFirst({ where: { id, payerMerchantId: payer.merchantId, livemode: payer.livemode } });
  if (!i) throw new NotFoundError("visa_instruction", id);
  return i;
}

export async function createInstruction(tx: Db, payer: Scope, input: CreateInstructionInput) {
  await checkCapturable(tx, payer.livemode, { paymentMethod: input.paymentMethod }, payer);
  const key = await tx.agentKey.findFirst({
    where: { id: input.agentKeyId, network: "visa", merchantId: payer.merchantId, livemode: payer.livemode },
  });
  if (!key) throw new NotFoundError("agent_key", input.agentKeyId);
  const spendingAgentId = await requireOwnSpendingAgent(tx, payer, input.spendingAgentId); // another payer's: 404
  const verified = input.assuranceData?.some((a) => a.verificationMethod === "passkey" && a.verificationResults === "verified") ?? false;
  const now = new Date();
  const row = await tx.visaInstruction.create({
    data: {
      id: createId("visaInstruction"),
      payerMerchantId: payer.merchantId,
      livemode: payer.livemode,
      agentKeyId: key.id,
      paymentMethod: input.paymentMethod,
      status: verified ? "active" : "pending_authentication",
      mandates: input.mandates,
      ...(input.assuranceData ? { assuranceData: input.assuranceData } : {}),
      spendingAgentId,
      createdAt: now,
      updatedAt: now,
    },
  });
  return serializeInstruction(row);
}

export async function getInstruction(db: Db, payer: Scope, id: string) {
  return serializeInstruction(await findInstruction(db, payer, id));
}

export async function listInstructions(db: Db, payer: Scope, query: z.output<typeof ListInstructionsQuery>) {
  return listNewestFirst(
    db.visaInstruction,
    { scope: { payerMerchantId: payer.merchantId, livemode: payer.livemode } },
    query,
    serializeInstruction,
  );
}

async function moveInstruction(tx: Db, payer: Scope, id: string, from: string[], to: string, extra: Record<string, unknown> = {}) {
  await findInstruction(tx, payer, id);
  const changed = await tx.visaInstruction.updateMany({
    where: { id, status: { in: from } },
    data: { status: to, updatedAt: new Date(), ...extra },
  });
  if (changed.count === 0) {
    const current = await findInstruction(tx, payer, id);
    throw new ConflictError(`Instruction ${id} is ${current.status}.`, { reason: "instruction_state", status: current.status });
  }
  return getInstruction(tx, payer, id);
}

/** Test mode's passkey step: the consumer approves (active) or declines (declined) a pending instruction. */
export async function authenticateInstruction(tx: Db, payer: Scope, id: string, result: "approved" | "declined") {
  if (payer.livemode)
    throw new ConflictError("The passkey step is the consumer's, with Visa, in live mode; this is a test-mode step.", {
      reason: "test_mode_only",
    });
  const assurance = [
    {
      verificationMethod: "passkey",
      verificationResults: result === "approved" ? "verified" : "failed",
      verificationTimestamp: new Date().toISOString(),
    },
  ];
  return moveInstruction(tx, payer, id, ["pending_authentication"], result === "approved" ? "active" : "declined", {
    assuranceData: assurance,
  });
}

export function cancelInstruction(tx: Db, payer: Scope, id: string) {
  return moveInstruction(tx, payer, id, ["active", "pending_authentication"], "canceled");
}

/** The mandate that allows this purchase, or the decline naming the first rule broken. */
export function mandateFor(instruction: VisaInstruction, merchantId: string, amount: number, currency: string, now = new Date()): Mandate {
  const mandates = instruction.mandates as Mandate[];
  const forMerchant = mandates.filter((m) => !m.merchantId || m.merchantId === merchantId);
  if (forMerchant.length === 0) throw declined("merchant_not_allowed", `No mandate of instruction ${instruction.id} allows this merchant.`);
  const current = forMerchant.filter((m) => new Date(m.effectiveUntilTime).getTime() > now.getTime());
  if (current.length === 0)
    throw declined("mandate_expired", `The mandates of instruction ${instruction.id} for this merchant have expired.`);
  const fits = current.find((m) => m.declineThreshold.currency === currency && amount <= m.declineThreshold.amount);
  if (!fits) throw declined("mandate_exceeded", `${amount} ${currency} is over the mandate's spend cap.`);
  return fits;
}

export async function requestCredential(
  tx: Db,
  req: Request,
  rawBody: string | undefined,
  payer: Scope,
  instructionId: string,
  input: CredentialRequestInput,
) {
  const agent = await requireVerifiedAgent(tx, req, rawBody, payer, "visa", "credential");
  const instruction = await findInstruction(tx, payer, instructionId);
  if (instruction.agentKeyId !== agent.key?.id)
    throw declined("agent_key_mismatch", `Instruction ${instructionId} is for another agent key.`);
  if (instruction.status !== "active") throw declined("instruction_not_active", `Instruction ${instructionId} is ${instruction.status}.`);
  const merchant = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw new NotFoundError("merchant", input.merchantId);
  mandateFor(instruction, input.merchantId, input.amount, input.currency);
  const now = new Date();
  const credential = await tx.visaCredential.create({
    data: {
      id: createId("visaCredential"),
      instructionId,
      payerMerchantId: payer.merchantId,
      livemode: payer.livemode,
      merchantId: input.merchantId,
      amount: input.amount,
      currency: input.currency,
      status: "active",
      expiresAt: new Date(now.getTime() + CREDENTIAL_LIFETIME_MS),
      createdAt: now,
    },
  });
  return serializeCredential(credential, { cryptogram: randomBytes(20).toString("base64") });
}

/** Signals: the agent reports the outcome of a purchase made with one of the instruction's credentials. */
export async function confirmCredential(
  tx: Db,
  payer: Scope,
  instructionId: string,
  input: { credentialId: string; status: "completed" | "failed" },
) {
  await findInstruction(tx, payer, instructionId);
  const changed = await tx.visaCredential.updateMany({
    where: { id: input.credentialId, instructionId },
    data: { confirmation: input.status },
  });
  if (changed.count === 0) throw new NotFoundError("visa_credential", input.credentialId);
  const c = await tx.visaCredential.findUniqueOrThrow({ where: { id: input.credentialId } });
  return {
    object: "visa_confirmation" as const,
    instructionId,
    credentialId: c.id,
    status: input.status,
    credential: serializeCredential(c),
  };
}
