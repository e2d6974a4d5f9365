// GET /x402/discovery/resources (public, limited per client IP): the listed hosted paid resources of this deployment
// in the x402 facilitator discovery API's shape (docs/x402.md, "Discovery"; @x402/extensions' withBazaar() reads it).
import { api } from "@/lib/http/api";
import { listX402Discovery } from "@/lib/x402/discovery";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, query }) => listX402Discovery(tx, query));

export const dynamic = "force-dynamic";
