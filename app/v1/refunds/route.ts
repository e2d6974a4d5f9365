import { api } from "@/lib/http/api";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createRefund(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listRefunds(tx, principal, query));

export const dynamic = "force-dynamic";
