// POST records a consumer's purchase instruction (vi_) with mandates; GET lists the payer's (docs/cards.md).
import { api } from "@/lib/http/api";
import { createInstruction, listInstructions } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createInstruction(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listInstructions(tx, principal, query));

export const dynamic = "force-dynamic";
