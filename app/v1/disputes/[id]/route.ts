import { api } from "@/lib/http/api";
import { getDispute } from "@/lib/disputes/get-dispute";
import { updateDispute } from "@/lib/disputes/update-dispute";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getDispute(tx, principal, params.id));

export const POST = api(operation.POST, ({ tx, principal, params, body }) => updateDispute(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
