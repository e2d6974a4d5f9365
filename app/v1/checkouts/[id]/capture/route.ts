import { captureCheckout } from "@/lib/checkouts/capture-checkout";
import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import * as operation from "./operations";

// Nothing after the capture reads its rows through Prisma (the stored answer is a statement through sqlIn): its
// transitions ride with that last statement (CaptureHooks.predictFromLock).
export const POST = api(operation.POST, ({ tx, principal, params, body, req }) =>
  captureCheckout(tx, principal, params.id, body, { afterRailCharge: () => faultAt(req, "after-rail-charge"), predictFromLock: true }),
);

export const dynamic = "force-dynamic";
