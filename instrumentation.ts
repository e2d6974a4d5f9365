// Next.js calls register() once when a server process starts (app.prepare() in server.mjs). Only in the
// long-running server (server.mjs sets APS_LONG_RUNNING) does it start the background work: one LISTEN
// connection for committed events, and the webhook sender that wakes on them. A serverless host runs
// neither: the cron tick sends there (docs/webhooks.md). Every server process first lets the protocol
// adapters fill in the domain's tables (lib/register-adapters.ts: ACP's webhook format, the x402-evm rail), before any send.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerAdapters } = await import("./lib/register-adapters");
  registerAdapters();
  // A2A's approval hook (docs/approvals.md "A2A and AP2") is registered here rather than in register-adapters.ts: lib/a2a
  // already sits at the deepest import chain scripts/deps.ts allows, so no lib/ module above it may import it.
  const { registerA2aApprovalHook } = await import("./lib/a2a/approval-outcome");
  registerA2aApprovalHook();
  // Live x402's chains are resolved now: a network without a token stops the start, not a payment later.
  const { liveNetworks } = await import("./lib/chains/live-networks");
  liveNetworks();
  // And the facilitator account's gas on them: a warning in the log when low (never waited on, never fatal).
  const { facilitatorLowBalances } = await import("./lib/x402/facilitator-balance");
  void facilitatorLowBalances();
  // Any server process (a serverless host's too): a production start that cannot send mail says so once.
  const { warnWhenMailCannotLeave } = await import("./lib/mail/transport-warning");
  warnWhenMailCannotLeave();
  if (process.env.APS_LONG_RUNNING !== "1") return;
  const { startBackgroundWork } = await import("./lib/background");
  startBackgroundWork();
}
