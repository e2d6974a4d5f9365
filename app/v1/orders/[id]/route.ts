import { api } from "@/lib/http/api";
import { getOrderAfterExpiry } from "@/lib/checkouts/read-after-expiry";

export const GET = api({ auth: "secret", permission: ["orders", "read"] }, ({ tx, principal, params }) =>
  getOrderAfterExpiry(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
