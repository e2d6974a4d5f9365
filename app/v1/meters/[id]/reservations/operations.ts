// The operations of /v1/meters/{id}/reservations (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterReservationObject, ReserveBody } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "reserveMeterBudget",
  summary: "Hold prepaid budget for a call (201 created by this request, 200 found)",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: ReserveBody,
  status: 201,
  idempotent: false,
  transaction: false,
  db: "sql",
  bodyName: "MeterReservationParams",
  responses: { 201: MeterReservationObject, 200: MeterReservationObject },
  sdk: { resource: "meters", method: "reserve", doc: "Prepaid: holds quantity x unitPriceMinor base units of the budget before the call." },
});
