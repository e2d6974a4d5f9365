// The operations of /v1/acp/commerce_settings (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CommerceSettingsObject, UpdateCommerceSettingsBody } from "@/lib/acp/merchant-settings";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getAcpCommerceSettings",
  summary: "Retrieve the ACP pricing settings of the mode (shipping rate, tax rates per country)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "read"],
  responses: { 200: CommerceSettingsObject },
  sdk: { resource: "acpCommerceSettings", method: "retrieve" },
});

export const POST = operation({
  operationId: "updateAcpCommerceSettings",
  summary: "Set the ACP pricing settings of the mode: what is given is set, the rest kept",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  body: UpdateCommerceSettingsBody,
  bodyName: "UpdateAcpCommerceSettingsParams",
  responses: { 200: CommerceSettingsObject },
  sdk: { resource: "acpCommerceSettings", method: "update" },
});
