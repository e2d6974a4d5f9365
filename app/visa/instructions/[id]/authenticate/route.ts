// POST (test mode): the consumer's passkey step for a pending instruction, { result: "approved" | "declined" } (docs/cards.md).
import { api } from "@/lib/http/api";
import { authenticateInstruction } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) =>
  authenticateInstruction(tx, principal, params.id, body.result),
);

export const dynamic = "force-dynamic";
