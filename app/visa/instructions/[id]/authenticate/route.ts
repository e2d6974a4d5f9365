// POST (test mode): the consumer's passkey step for a pending instruction, { result: "approved" | "declined" } (docs/cards.md).
import { api } from "@/lib/http/api";
import { authenticateInstruction } from "@/lib/visa/instructions";
import { AuthenticateBody } from "@/lib/visa/schemas";

export const POST = api({ auth: "secret", permission: ["visa", "write"], body: AuthenticateBody }, ({ tx, principal, params, body }) =>
  authenticateInstruction(tx, principal, params.id, body.result),
);

export const dynamic = "force-dynamic";
