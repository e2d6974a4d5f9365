// The spending-policy side of the benchmarks (`npm run bench`'s spt cases, `npm run bench:x402` with
// BENCH_X402_POLICY=1): spending agents created over HTTP with the payer's key, each with a policy whose every rule
// is evaluated on each charge and never refuses one (docs/spending-policies.md), and a count afterwards proving the
// charges went through the check (a budget counter use and an agent payment row per charge).
import type pg from "pg";

/** A daily budget no bench run reaches (the most a budget may be), so the check is timed, never a refusal. */
const NEVER_REACHED_BUDGET = 99_999_999_000;

/**
 * Every rule the check knows, none refusing: the deny list (another merchant), the allow list (the payee), the
 * protocol, hours (the whole UTC day), the per-transaction maximum and the approval threshold (both above the
 * bench's charges), and one daily budget in the charges' currency: one counter upsert per charge.
 */
export function benchPolicy(payeeMerchantId: string, protocol: string, largestCharge: number) {
  return {
    budgets: [{ window: "day", currency: "usd", amount: NEVER_REACHED_BUDGET }],
    maxPerTransaction: [{ currency: "usd", amount: largestCharge }],
    allowedMerchants: [payeeMerchantId],
    deniedMerchants: ["mer_000000000000000000000000"],
    allowedProtocols: [protocol],
    approvalThreshold: [{ currency: "usd", amount: largestCharge }],
    hours: [{ start: "00:00", end: "24:00" }],
  };
}

/** POST /v1/spending_agents with the payer's test key (test mode takes wallet addresses without proof); its id. */
export async function createSpendingAgent(
  baseUrl: string,
  payerKey: string,
  body: { name: string; policy: unknown; walletAddresses?: string[] },
): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/spending_agents`, {
    method: "POST",
    headers: { authorization: `Bearer ${payerKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create spending agent: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/**
 * What the checks counted, read directly from the database (`query`: a plain SQL client), beside the captured
 * PaymentIntents of `source`: every charge that named an agent is one budget use and one agent payment.
 */
export async function spendingCounts(query: (sql: string) => Promise<Record<string, unknown>[]>, source: "spt" | "x402"): Promise<string> {
  const [captured] = await query(
    `SELECT count(*)::int AS n FROM payment_intents WHERE source = '${source}' AND status IN ('captured', 'settled')`,
  );
  const [counters] = await query(
    `SELECT count(*)::int AS rows, coalesce(sum(uses), 0)::int AS uses FROM spend_counters WHERE counter_key LIKE 'spending_agent:%'`,
  );
  const [payments] = await query(`SELECT count(*)::int AS payments FROM spending_agent_payments`);
  const [table] = await query(`SELECT n_tup_upd, n_tup_hot_upd, n_dead_tup FROM pg_stat_user_tables WHERE relname = 'spend_counters'`);
  return (
    `captured or settled ${source} PaymentIntents: ${captured.n}; spending agents' budget counters: ${counters.rows} rows, ${counters.uses} charges counted; ` +
    `agent payments recorded: ${payments.payments}; spend_counters: ${table?.n_tup_upd ?? 0} updates, ` +
    `${table?.n_tup_hot_upd ?? 0} HOT, ${table?.n_dead_tup ?? 0} dead tuples`
  );
}

/** spendingCounts through a pg client. */
export function pgQuery(client: pg.Client) {
  return async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
}
