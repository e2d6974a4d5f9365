import { api } from "@/lib/http/api";
import { UsageSummaryQuery } from "@/lib/meters/schemas";
import { getUsageSummary } from "@/lib/meters/usage-summary";

// A meter's usage by hour or day, read from the per-hour rollup (lib/meters/usage-summary.ts).
export const GET = api(
  { auth: "secret", permission: ["meters", "read"], query: UsageSummaryQuery, db: "sql" },
  ({ tx, principal, params, query }) => getUsageSummary(tx, principal, params.id, query),
);

export const dynamic = "force-dynamic";
