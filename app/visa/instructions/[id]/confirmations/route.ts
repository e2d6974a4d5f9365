// POST records the outcome of a purchase made with one of the instruction's credentials (docs/cards.md).
import { api } from "@/lib/http/api";
import { confirmCredential } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => confirmCredential(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
