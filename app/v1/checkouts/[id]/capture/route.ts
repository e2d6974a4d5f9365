import { captureCheckout } from "@/lib/checkouts/capture-checkout";
import { CaptureCheckoutBody } from "@/lib/checkouts/schemas";
import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";

export const POST = api(
  { auth: "secret", permission: ["checkouts", "write"], body: CaptureCheckoutBody },
  ({ tx, principal, params, body, req }) =>
    captureCheckout(tx, principal, params.id, body, { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
