// GET one of the payer's agentic tokens (docs/cards.md "Agentic tokens").
import { api } from "@/lib/http/api";
import { getAgenticToken } from "@/lib/mastercard/agentic-tokens";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getAgenticToken(tx, principal, params.id));

export const dynamic = "force-dynamic";
