import type { z } from "zod";
import type { Event } from "../generated/prisma/client";
import type { ServiceEventObject } from "./schemas";
import type { EventType } from "./types";

export function serializeEvent(event: Event) {
  return {
    id: event.id,
    object: "event" as const,
    type: event.type as EventType,
    data: event.data as Record<string, unknown>,
    livemode: event.livemode,
    createdAt: event.createdAt.toISOString(),
  } satisfies z.input<typeof ServiceEventObject>;
}
