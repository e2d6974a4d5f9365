// POST cancels a purchase instruction: no more credentials are drawn or paid with (docs/cards.md).
import { api } from "@/lib/http/api";
import { cancelInstruction } from "@/lib/visa/instructions";

export const POST = api({ auth: "secret", permission: ["visa", "write"] }, ({ tx, principal, params }) =>
  cancelInstruction(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
