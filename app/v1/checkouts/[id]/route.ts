import { getCheckout } from "@/lib/checkouts/get-checkout";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret", permission: ["checkouts", "read"] }, ({ tx, principal, params }) =>
  getCheckout(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
