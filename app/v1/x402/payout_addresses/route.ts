import { originOf } from "@/lib/accounts/activity";
import { api } from "@/lib/http/api";
import { clientIp } from "@/lib/http/client-ip";
import { listPayoutAddresses, setPayoutAddress } from "@/lib/x402/payout-addresses";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body, req }) =>
  setPayoutAddress(tx, principal, body, { apiKeyId: principal.apiKeyId, origin: originOf(req.headers, clientIp(req)) }),
);

export const GET = api(operation.GET, ({ tx, principal }) => listPayoutAddresses(tx, principal));

export const dynamic = "force-dynamic";
