import { api } from "@/lib/http/api";
import { getRefund } from "@/lib/refunds/get-refund";

export const GET = api({ auth: "secret", permission: ["refunds", "read"] }, ({ tx, principal, params }) =>
  getRefund(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
