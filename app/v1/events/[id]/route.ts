import { getEvent } from "@/lib/events/get-event";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getEvent(tx, principal, params.id));

export const dynamic = "force-dynamic";
