import { api } from "@/lib/http/api";
import { getToken } from "@/lib/shared-payment-tokens/list-tokens";

export const GET = api({ auth: "secret" }, ({ tx, principal, params }) => getToken(tx, principal, params.id));

export const dynamic = "force-dynamic";
