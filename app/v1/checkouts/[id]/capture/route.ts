import { captureCheckout } from "@/lib/checkouts/capture-checkout";
import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body, req }) =>
  captureCheckout(tx, principal, params.id, body, { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
