// The operations of /v1/x402/resources/{id}: /v1/paid_resources/{id} under x402's name (the route re-exports its handlers).
import { alias } from "@/lib/openapi/operation";
import * as paidResource from "../../../paid_resources/[id]/operations";

export const GET = alias(paidResource.GET, "getX402Resource");
export const POST = alias(paidResource.POST, "updateX402Resource");
export const DELETE = alias(paidResource.DELETE, "archiveX402Resource");
