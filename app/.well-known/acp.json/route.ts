// ACP's discovery document (docs/acp.md "Discovery"): public, limited per client IP, cacheable for an hour.
import { DISCOVERY_CACHE_CONTROL, discoveryDocument } from "@/lib/acp/discovery";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, () => Response.json(discoveryDocument(), { headers: { "Cache-Control": DISCOVERY_CACHE_CONTROL } }));

export const dynamic = "force-dynamic";
