import { api } from "@/lib/http/api";
import { TopUpBody } from "@/lib/meters/schemas";
import { topUpMeter } from "@/lib/meters/top-up-meter";

export const POST = api({ auth: "secret", body: TopUpBody }, ({ tx, principal, params, body }) => topUpMeter(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
