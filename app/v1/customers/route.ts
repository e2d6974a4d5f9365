import { createCustomer } from "@/lib/customers/create-customer";
import { listCustomers } from "@/lib/customers/list-customers";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ principal, body }) => createCustomer(principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listCustomers(tx, principal, query));

export const dynamic = "force-dynamic";
