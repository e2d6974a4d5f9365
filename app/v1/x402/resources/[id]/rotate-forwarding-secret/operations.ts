// The operation of /v1/x402/resources/{id}/rotate-forwarding-secret: /v1/paid_resources' under x402's name.
import { alias } from "@/lib/openapi/operation";
import * as rotate from "../../../../paid_resources/[id]/rotate-forwarding-secret/operations";

export const POST = alias(rotate.POST, "rotateX402ResourceForwardingSecret");
