// The operations of /v1/x402/resources: /v1/paid_resources under x402's name (the route re-exports its handlers).
import { alias } from "@/lib/openapi/operation";
import * as paidResources from "../../paid_resources/operations";

export const POST = alias(paidResources.POST, "createX402Resource");
export const GET = alias(paidResources.GET, "listX402Resources");
