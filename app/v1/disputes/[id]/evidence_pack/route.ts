// GET /v1/disputes/:id/evidence_pack (docs/disputes.md, "The evidence pack").
import { api } from "@/lib/http/api";
import { getEvidencePack } from "@/lib/disputes/get-evidence-pack";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getEvidencePack(tx, principal, params.id));

export const dynamic = "force-dynamic";
