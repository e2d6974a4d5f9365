// The operations of /v1/meters/{id}/reservations/{rid}/release (lib/openapi/operation.ts): the route's api() options
// and its OpenAPI entry; the options are commit's (the same hold, the other outcome).
import { operation } from "@/lib/openapi/operation";
import * as commit from "../commit/operations";

export const POST = operation({
  ...commit.POST,
  permission: ["meters", "write"],
  operationId: "releaseMeterReservation",
  summary: "Release a hold: its amount is available again",
  sdk: { resource: "meters", method: "releaseReservation", ids: "meterId, reservationId" },
});
