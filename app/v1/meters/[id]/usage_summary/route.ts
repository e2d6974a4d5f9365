import { api } from "@/lib/http/api";
import { getUsageSummary } from "@/lib/meters/usage-summary";
import * as operation from "./operations";

// A meter's usage by hour or day, read from the per-hour rollup (lib/meters/usage-summary.ts).
export const GET = api(operation.GET, ({ tx, principal, params, query }) => getUsageSummary(tx, principal, params.id, query));

export const dynamic = "force-dynamic";
