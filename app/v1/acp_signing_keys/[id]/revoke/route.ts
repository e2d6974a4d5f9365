import { revokeAcpSigningKey } from "@/lib/acp/signing-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => revokeAcpSigningKey(tx, principal, params.id));

export const dynamic = "force-dynamic";
