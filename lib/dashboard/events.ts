// The dashboard's events pages: the list query (?type=&startingAfter=, made safe for listEvents) and the
// object an event is about, with a link to its dashboard page when it has one.
import { EVENT_TYPES, type EventType } from "../events/types";
import type { ListEventsInput } from "../events/schemas";
import { ID_PREFIXES } from "../ids";
import { ownValue } from "../own-key";
import { listPageQuery, type SearchParams } from "./list-query";

/** An unknown type shows every type; a cursor that is not an id is dropped (listPageQuery). */
export async function eventsPageQuery(searchParams: SearchParams): Promise<ListEventsInput> {
  const [{ startingAfter, limit }, params] = await Promise.all([listPageQuery(searchParams, []), searchParams]);
  const type = Array.isArray(params.type) ? params.type[0] : params.type;
  return {
    limit,
    ...(startingAfter ? { startingAfter } : {}),
    ...(type && (EVENT_TYPES as readonly string[]).includes(type) ? { type: type as EventType } : {}),
  };
}

const OBJECT_PAGES: Record<string, string> = {
  [ID_PREFIXES.order]: "/dashboard/orders",
  [ID_PREFIXES.paymentIntent]: "/dashboard/payments",
};

/** The sample objects of test events (lib/webhooks/test-event.ts) have all-zero ids and no page. */
const SAMPLE_ID = /_0{24}$/;

/** `data.object.id` of an event, its dashboard page (orders, payments) when there is one, and whether it is a
 * sample ("Send test event"), so the dashboard can set samples apart from the account's real events. */
export function eventObject(data: unknown): { id: string; href: string | null; sample: boolean } | null {
  const id = (data as { object?: { id?: unknown } } | null)?.object?.id;
  if (typeof id !== "string") return null;
  const page = ownValue(OBJECT_PAGES, id.split("_")[0]);
  const sample = SAMPLE_ID.test(id);
  return { id, href: page && !sample ? `${page}/${id}` : null, sample };
}
