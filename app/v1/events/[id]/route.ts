import { getEvent } from "@/lib/events/get-event";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret", permission: ["events", "read"] }, ({ tx, principal, params }) =>
  getEvent(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
