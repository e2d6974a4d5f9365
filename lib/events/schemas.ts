import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";
import { EVENT_TYPES } from "./types";

export const ListEventsQuery = ListQuery.extend({ type: z.enum(EVENT_TYPES).optional() }).strict();
export type ListEventsInput = z.output<typeof ListEventsQuery>;

/**
 * GET /v1/events/stream's query: `types`, a comma-separated list of event types or prefixes ending in `*`
 * (`order.*`), checked by parseTypeFilter in stream.ts. Other parameters are ignored.
 */
export const EventStreamQuery = z.object({ types: z.string().optional() });

// Responses.

export const ServiceEventObject = z
  .object({
    id: z.string(),
    object: z.literal("event"),
    type: z.enum(EVENT_TYPES),
    /** `{ object }`: the object as it was when the event happened. */
    data: z.record(z.string(), z.unknown()),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "ServiceEvent" });

export const ServiceEventList = listOf(ServiceEventObject, "ServiceEventList");
