import type { z } from "zod";
import type { Event } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";
import type { ServiceEventObject } from "./schemas";
import type { EventType } from "./types";

/** The columns the API object shows (a raw-SQL read selects just these: EVENTS). */
export type EventFields = Pick<Event, "id" | "type" | "data" | "livemode" | "createdAt">;

/** The events table as the API shows it, for the raw-SQL reads of lib/pagination.ts (the list, an event by id). */
export const EVENTS: SqlTable = { table: "events", columns: `id, type, data, livemode, created_at AS "createdAt"` };

export function serializeEvent(event: EventFields) {
  return {
    id: event.id,
    object: "event" as const,
    type: event.type as EventType,
    data: event.data as Record<string, unknown>,
    livemode: event.livemode,
    createdAt: event.createdAt.toISOString(),
  } satisfies z.input<typeof ServiceEventObject>;
}
