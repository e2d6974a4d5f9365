import { getCheckout } from "@/lib/checkouts/get-checkout";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getCheckout(tx, principal, params.id));

export const dynamic = "force-dynamic";
