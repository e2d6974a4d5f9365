import { createAcpSigningKey, listAcpSigningKeys } from "@/lib/acp/signing-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createAcpSigningKey(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listAcpSigningKeys(tx, principal, query));

export const dynamic = "force-dynamic";
