import { api } from "@/lib/http/api";
import { getToken } from "@/lib/shared-payment-tokens/list-tokens";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getToken(tx, principal, params.id));

export const dynamic = "force-dynamic";
