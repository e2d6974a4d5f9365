// POST cancels a purchase instruction: no more credentials are drawn or paid with (docs/cards.md).
import { api } from "@/lib/http/api";
import { cancelInstruction } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => cancelInstruction(tx, principal, params.id));

export const dynamic = "force-dynamic";
