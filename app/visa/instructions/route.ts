// POST records a consumer's purchase instruction (vi_) with mandates; GET lists the payer's (docs/cards.md).
import { api } from "@/lib/http/api";
import { createInstruction, listInstructions } from "@/lib/visa/instructions";
import { CreateInstructionBody, ListInstructionsQuery } from "@/lib/visa/schemas";

export const POST = api(
  { auth: "secret", permission: ["visa", "write"], body: CreateInstructionBody, status: 201 },
  ({ tx, principal, body }) => createInstruction(tx, principal, body),
);

export const GET = api({ auth: "secret", permission: ["visa", "read"], query: ListInstructionsQuery }, ({ tx, principal, query }) =>
  listInstructions(tx, principal, query),
);

export const dynamic = "force-dynamic";
