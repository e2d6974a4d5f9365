import { listCheckouts } from "@/lib/checkouts/list-checkouts";
import { openCheckout } from "@/lib/checkouts/open-checkout";
import { ListCheckoutsQuery, OpenCheckoutBody } from "@/lib/checkouts/schemas";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["checkouts", "write"], body: OpenCheckoutBody, status: 201 },
  ({ tx, principal, body }) => openCheckout(tx, principal, body, { source: "api" }),
);

export const GET = api({ auth: "secret", permission: ["checkouts", "read"], query: ListCheckoutsQuery }, ({ tx, principal, query }) =>
  listCheckouts(tx, principal, query),
);

export const dynamic = "force-dynamic";
