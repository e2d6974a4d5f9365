// Bodies of the /mastercard paths (docs/cards.md "Mastercard").
import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery } from "../validation/common";

const Id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `must be a ${prefix}_ id`);

export const IssueTokenBody = z
  .object({
    /** What the rail charges: a test payment method (pm_card_mastercard, ...) or one of the payer's cus_ wallets. */
    paymentMethod: z.string().min(1).max(128),
    /** The payer's agent key registered here, or (agentOperator) a trusted foreign agent operator's origin: exactly one. */
    agentKeyId: Id("agk").optional(),
    agentOperator: z
      .string()
      .max(2048)
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), "must be an http(s) origin")
      .transform((value) => new URL(value).origin)
      .optional(),
    merchantId: Id("mer"),
    /** The payer's spending agent (sag_) it pays for: that agent's policy is checked at each charge (docs/spending-policies.md). */
    spendingAgentId: Id("sag").optional(),
    limits: z
      .object({
        maxAmount: z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT),
        currency: Currency,
        maxUses: z.number().int().min(1).max(1000).default(1),
        expiresAt: z.iso.datetime({ offset: true }).optional(),
      })
      .strict(),
  })
  .strict()
  .refine((body) => (body.agentKeyId === undefined) !== (body.agentOperator === undefined), {
    message: "exactly one of agentKeyId and agentOperator",
    path: ["agentKeyId"],
  });
export type IssueTokenInput = z.output<typeof IssueTokenBody>;

export const ListTokensQuery = z.object({ ...ListQuery.shape }).strict();

export const PayCheckoutBody = z
  .object({
    agenticToken: Id("atk"),
    dtvc: z.string().regex(/^\d{3}$/, "must be the 3-digit dynamic token verification code"),
  })
  .strict();
export type PayCheckoutInput = z.output<typeof PayCheckoutBody>;
