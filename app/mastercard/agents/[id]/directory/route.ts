// GET one Mastercard agent's key directory (public): what its Signature-Agent (type jwks_uri) names (docs/cards.md).
import { asDirectory } from "@/lib/agent-identity/directory-response";
import { keyDirectory } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = asDirectory(api(operation.GET, ({ tx, params }) => keyDirectory(tx, "mastercard", params.id)));

export const dynamic = "force-dynamic";
