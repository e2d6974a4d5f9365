import { cancelCheckout } from "@/lib/checkouts/cancel-checkout";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => cancelCheckout(tx, principal, params.id));

export const dynamic = "force-dynamic";
