import { listEvents } from "@/lib/events/list-events";
import { ListEventsQuery } from "@/lib/events/schemas";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret", permission: ["events", "read"], query: ListEventsQuery }, ({ tx, principal, query }) =>
  listEvents(tx, principal, query),
);

export const dynamic = "force-dynamic";
