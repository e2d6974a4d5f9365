import { api } from "@/lib/http/api";
import { getRefund } from "@/lib/refunds/get-refund";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getRefund(tx, principal, params.id));

export const dynamic = "force-dynamic";
