import { listCheckouts } from "@/lib/checkouts/list-checkouts";
import { openCheckout } from "@/lib/checkouts/open-checkout";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => openCheckout(tx, principal, body, { source: "api" }));

export const GET = api(operation.GET, ({ tx, principal, query }) => listCheckouts(tx, principal, query));

export const dynamic = "force-dynamic";
