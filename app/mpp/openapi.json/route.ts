// GET /mpp/openapi.json (public, limited per client IP): MPP's discovery document of this deployment's listed hosted
// paid resources (docs/mpp.md, "Discovery"; mppx/discovery reads it). The REST API's own document is /v1/openapi.json.
import { api } from "@/lib/http/api";
import { mppDiscoveryDocument } from "@/lib/mpp/discovery";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx }) => mppDiscoveryDocument(tx));

export const dynamic = "force-dynamic";
