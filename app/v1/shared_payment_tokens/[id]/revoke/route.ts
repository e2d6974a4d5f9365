import { api } from "@/lib/http/api";
import { revokeToken } from "@/lib/shared-payment-tokens/revoke-token";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => revokeToken(tx, principal, params.id, "api"));

export const dynamic = "force-dynamic";
