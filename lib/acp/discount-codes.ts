// The merchant's API for ACP discount codes (docs/acp.md "Pricing settings"): `POST/GET /v1/acp/discount_codes`,
// `DELETE /v1/acp/discount_codes/:code`, per mode. A code takes a percentage (1..100) or an amount off in one
// currency (the table's CHECK says the same); agents apply it through ACP's discount extension (lib/acp/quote.ts).
// Codes match exactly as written (case-sensitive). A deleted code no longer applies to open sessions; completed
// ones keep the quote they charged.
import { z } from "zod";
import type { Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import type { AcpDiscountCode } from "../generated/prisma/client";
import { MAX_AMOUNT } from "../money/limits";
import type { Scope } from "../scope";
import { Currency } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";

/** The code an agent types: letters, digits, `-` and `_`, so it needs no escaping in a JSONPath or a URL. */
const Code = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '-' or '_'");

export const CreateDiscountCodeBody = z
  .object({
    code: Code,
    name: z.string().trim().min(1, "must not be empty").max(256),
    percentOff: z.number().int("must be an integer percentage").min(1).max(100).optional(),
    amountOff: z.number().int("must be a positive integer in minor units").min(1).max(MAX_AMOUNT).optional(),
    currency: Currency.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const percent = body.percentOff !== undefined;
    const amount = body.amountOff !== undefined;
    if (percent === amount) ctx.addIssue({ code: "custom", path: ["percentOff"], message: "give exactly one of percentOff and amountOff" });
    if (amount && !body.currency) ctx.addIssue({ code: "custom", path: ["currency"], message: "is required with amountOff" });
    if (percent && body.currency) ctx.addIssue({ code: "custom", path: ["currency"], message: "goes only with amountOff" });
  });

export const DiscountCodeObject = z
  .object({
    object: z.literal("acp_discount_code"),
    code: z.string(),
    name: z.string(),
    percentOff: z.number().int().nullable(),
    amountOff: z.number().int().nullable(),
    currency: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "AcpDiscountCode" });
export const DiscountCodeList = listOf(DiscountCodeObject, "AcpDiscountCodeList");
export const DeletedDiscountCode = z
  .object({ object: z.literal("acp_discount_code"), code: z.string(), deleted: z.literal(true) })
  .meta({ id: "DeletedAcpDiscountCode" });

/** A merchant has few codes: the list is one page of them, newest first (`hasMore` when there are more). */
const MAX_CODES = 500;

function serialize(row: AcpDiscountCode): z.output<typeof DiscountCodeObject> {
  return {
    object: "acp_discount_code",
    code: row.code,
    name: row.name,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    currency: row.currency, // upper case, as every /v1 object shows it (the quote compares case-insensitively)
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The primary key (merchant, mode, code) decides a duplicate: INSERT ... ON CONFLICT DO NOTHING, then 409. */
export async function createDiscountCode(tx: Db, scope: Scope, input: z.output<typeof CreateDiscountCodeBody>) {
  const where = { merchantId: scope.merchantId, livemode: scope.livemode, code: input.code };
  const { count } = await tx.acpDiscountCode.createMany({
    data: [
      {
        ...where,
        name: input.name,
        percentOff: input.percentOff ?? null,
        amountOff: input.amountOff ?? null,
        currency: input.currency ?? null,
      },
    ],
    skipDuplicates: true,
  });
  if (count === 0)
    throw new ConflictError(`The discount code ${input.code} already exists; delete it first to change it.`, {
      reason: "discount_code_exists",
    });
  return serialize(await tx.acpDiscountCode.findUniqueOrThrow({ where: { merchantId_livemode_code: where } }));
}

export async function listDiscountCodes(db: Db, scope: Scope) {
  const rows = await db.acpDiscountCode.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, active: true },
    orderBy: [{ createdAt: "desc" }, { code: "asc" }],
    take: MAX_CODES + 1,
  });
  return { object: "list" as const, data: rows.slice(0, MAX_CODES).map(serialize), hasMore: rows.length > MAX_CODES };
}

/** One DELETE ... WHERE: a code of another merchant or mode, or one already deleted, is 404. */
export async function deleteDiscountCode(tx: Db, scope: Scope, code: string) {
  const { count } = await tx.acpDiscountCode.deleteMany({ where: { merchantId: scope.merchantId, livemode: scope.livemode, code } });
  if (count === 0) throw new NotFoundError("discount code", code);
  return { object: "acp_discount_code" as const, code, deleted: true as const };
}
