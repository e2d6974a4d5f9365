// POST revokes an agentic token: its next use is declined with token_revoked (docs/cards.md).
import { api } from "@/lib/http/api";
import { revokeAgenticToken } from "@/lib/mastercard/agentic-tokens";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => revokeAgenticToken(tx, principal, params.id));

export const dynamic = "force-dynamic";
