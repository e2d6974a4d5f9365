import type { Event } from "../generated/prisma/client";

export function serializeEvent(event: Event) {
  return {
    id: event.id,
    object: "event" as const,
    type: event.type,
    data: event.data,
    livemode: event.livemode,
    createdAt: event.createdAt.toISOString(),
  };
}
