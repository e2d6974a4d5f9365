import { getCustomer } from "@/lib/customers/get-customer";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret", permission: ["customers", "read"], db: "sql" }, ({ tx, principal, params }) =>
  getCustomer(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
