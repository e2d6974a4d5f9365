import { customerCreation } from "@/lib/customers/create-customer";
import { listCustomers } from "@/lib/customers/list-customers";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

// The insert runs inside the API-key statement, beside the idempotency claim stored with its answer: one round trip.
export const POST = api(operation.POST, { write: ({ body }) => customerCreation(body) });

export const GET = api(operation.GET, ({ tx, principal, query }) => listCustomers(tx, principal, query));

export const dynamic = "force-dynamic";
