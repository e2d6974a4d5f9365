import { getCheckout } from "@/lib/checkouts/get-checkout";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret" }, ({ tx, principal, params }) => getCheckout(tx, principal, params.id));

export const dynamic = "force-dynamic";
