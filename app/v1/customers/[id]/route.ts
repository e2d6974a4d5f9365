import { getCustomer } from "@/lib/customers/get-customer";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getCustomer(tx, principal, params.id));

export const dynamic = "force-dynamic";
