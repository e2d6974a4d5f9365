// GET one of the payer's purchase instructions (docs/cards.md).
import { api } from "@/lib/http/api";
import { getInstruction } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getInstruction(tx, principal, params.id));

export const dynamic = "force-dynamic";
