// Bodies of the /visa paths (docs/cards.md "Visa").
import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery } from "../validation/common";

const Id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `must be a ${prefix}_ id`);
const Amount = z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT);
const Timestamp = z.iso.datetime({ offset: true, message: "must be an ISO-8601 timestamp" });

export const Mandate = z
  .object({
    description: z.string().min(1).max(500),
    declineThreshold: z.object({ amount: Amount, currency: Currency }).strict(),
    effectiveUntilTime: Timestamp,
    merchantId: Id("mer").optional(),
  })
  .strict();
export type Mandate = z.output<typeof Mandate>;

export const AssuranceData = z
  .object({
    verificationMethod: z.enum(["passkey"]),
    verificationResults: z.enum(["verified", "failed"]),
    verificationTimestamp: Timestamp,
  })
  .strict();

export const CreateInstructionBody = z
  .object({
    paymentMethod: z.string().min(1).max(128),
    agentKeyId: Id("agk"),
    mandates: z.array(Mandate).min(1).max(10),
    assuranceData: z.array(AssuranceData).max(5).optional(),
    /** The payer's spending agent it pays for (docs/spending-policies.md): its policy is checked at each payment. */
    spendingAgentId: Id("sag").optional(),
  })
  .strict();
export type CreateInstructionInput = z.output<typeof CreateInstructionBody>;

export const ListInstructionsQuery = z.object({ ...ListQuery.shape }).strict();

export const AuthenticateBody = z.object({ result: z.enum(["approved", "declined"]) }).strict();

export const CredentialRequestBody = z.object({ merchantId: Id("mer"), amount: Amount, currency: Currency }).strict();
export type CredentialRequestInput = z.output<typeof CredentialRequestBody>;

export const ConfirmationBody = z.object({ credentialId: Id("vtok"), status: z.enum(["completed", "failed"]) }).strict();

/**
 * POST /visa/checkouts/:id/pay. The container is kept as received (a record keeps its members' order): its
 * signature covers them in that order (lib/agent-identity/payment-container.ts).
 */
export const VisaPayBody = z
  .object({
    agenticPaymentContainer: z.record(z.string().max(64), z.unknown()),
    agenticConsumer: z.record(z.string().max(64), z.unknown()).optional(),
  })
  .strict();
export type VisaPayInput = z.output<typeof VisaPayBody>;
