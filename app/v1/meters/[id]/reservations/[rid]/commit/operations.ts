// The operations of /v1/meters/{id}/reservations/{rid}/commit (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { EmptyBody, MeterReservationObject } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "commitMeterReservation",
  summary: "Commit a hold: its amount is used",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: EmptyBody,
  idempotent: false,
  transaction: false,
  db: "sql",
  responses: { 200: MeterReservationObject },
  sdk: { resource: "meters", method: "commitReservation", ids: "meterId, reservationId" },
});
