// GET one of the payer's purchase instructions (docs/cards.md).
import { api } from "@/lib/http/api";
import { getInstruction } from "@/lib/visa/instructions";

export const GET = api({ auth: "secret", permission: ["visa", "read"] }, ({ tx, principal, params }) =>
  getInstruction(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
