import { listEvents } from "@/lib/events/list-events";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, query }) => listEvents(tx, principal, query));

export const dynamic = "force-dynamic";
