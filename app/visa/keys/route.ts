// GET /visa/keys?keyID=<kid> (public): one key of Visa's key store, as the TAP key lookup names it (docs/cards.md).
import { z } from "zod";
import { keyByKeyId } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

const Query = z.object({ keyID: z.string().min(1).max(255) }).strict();

export const GET = api({ auth: "public", query: Query }, ({ tx, query }) => keyByKeyId(tx, "visa", query.keyID));

export const dynamic = "force-dynamic";
