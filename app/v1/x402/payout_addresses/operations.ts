// The operations of /v1/x402/payout_addresses (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PayoutAddressList, PayoutAddressObject, SetPayoutAddressBody } from "@/lib/x402/payout-addresses";

export const POST = operation({
  operationId: "setX402PayoutAddress",
  summary: "Set where live x402 payments on a network go (live key; replaces the network's current address)",
  tag: "x402",
  auth: "secret",
  permission: ["payout_addresses", "write"],
  body: SetPayoutAddressBody,
  status: 201,
  bodyName: "SetX402PayoutAddressParams",
  responses: { 201: PayoutAddressObject },
  sdk: {
    resource: "payoutAddresses",
    method: "set",
    doc: "Live key only (a secret key, never a restricted one): where live x402 payments on `network` go, replacing the current address; every owner is mailed.",
  },
});

export const GET = operation({
  operationId: "listX402PayoutAddresses",
  summary: "The current live x402 payout addresses, one per network (live key)",
  tag: "x402",
  auth: "secret",
  permission: ["payout_addresses", "read"],
  responses: { 200: PayoutAddressList },
  sdk: { resource: "payoutAddresses", method: "list", doc: "Live key only: the current payout address of each live network." },
});
