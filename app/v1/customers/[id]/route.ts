import { customerOf, customerQuery } from "@/lib/customers/get-customer";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

// The read runs inside the API-key statement (lib/http/authenticate.ts): the request is one round trip.
export const GET = api(operation.GET, { statement: ({ params }) => customerQuery(params.id) }, ({ row, params }) =>
  customerOf(row, params.id),
);

export const dynamic = "force-dynamic";
