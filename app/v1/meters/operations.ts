// The operations of /v1/meters (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CreateMeterBody, ListMetersQuery, MeterList, MeterObject } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createMeter",
  summary: "Open a meter (a prepaid one is funded during the request); 200 when a retry found it",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: CreateMeterBody,
  status: 201,
  transaction: false,
  bodyName: "CreateMeterParams",
  responses: { 201: MeterObject, 200: MeterObject },
  sdk: { resource: "meters", method: "create" },
});

export const GET = operation({
  operationId: "listMeters",
  summary: "List meters",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "read"],
  query: ListMetersQuery,
  responses: { 200: MeterList },
  sdk: { resource: "meters", method: "list", params: "params?: T.ListMetersParams" },
});
