import { createCustomer } from "@/lib/customers/create-customer";
import { listCustomers } from "@/lib/customers/list-customers";
import { CreateCustomerBody, ListCustomersQuery } from "@/lib/customers/schemas";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["customers", "write"], body: CreateCustomerBody, status: 201, db: "sql" },
  ({ principal, body }) => createCustomer(principal, body),
);

export const GET = api({ auth: "secret", permission: ["customers", "read"], query: ListCustomersQuery }, ({ tx, principal, query }) =>
  listCustomers(tx, principal, query),
);

export const dynamic = "force-dynamic";
