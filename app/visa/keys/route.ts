// GET /visa/keys?keyID=<kid> (public): one key of Visa's key store, as the TAP key lookup names it (docs/cards.md).
import { keyByKeyId } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, query }) => keyByKeyId(tx, "visa", query.keyID));

export const dynamic = "force-dynamic";
