// GET /x402/supported (merchant key): the kinds this facilitator settles, and the merchant's payTo (docs/x402.md).
import { api } from "@/lib/http/api";
import { supportedX402 } from "@/lib/x402/facilitator";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal }) => supportedX402(tx, principal));

export const dynamic = "force-dynamic";
