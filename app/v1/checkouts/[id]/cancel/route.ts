import { cancelCheckout } from "@/lib/checkouts/cancel-checkout";
import { CancelCheckoutBody } from "@/lib/checkouts/schemas";
import { api } from "@/lib/http/api";

export const POST = api({ auth: "secret", permission: ["checkouts", "write"], body: CancelCheckoutBody }, ({ tx, principal, params }) =>
  cancelCheckout(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
