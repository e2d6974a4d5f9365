// What a protocol adapter does when an approval request it made is decided (an ACP session completes or ends):
// filled in at startup by lib/register-adapters.ts, so lib/approvals never imports an adapter. The table lives on
// globalThis: Next bundles instrumentation and the routes apart, and they must see the same one.
import type { Db } from "../db";
import type { ApprovalRequest } from "../generated/prisma/client";
import { globalSingleton } from "../global-singleton";

/** Runs in the deciding transaction, with the request as decided (approved: its paymentIntentId set). */
export type ApprovalDecidedHook = (tx: Db, request: ApprovalRequest) => Promise<void>;

const hooks = () => globalSingleton("approval-decided-hooks", () => new Map<string, ApprovalDecidedHook>());

export function onApprovalDecided(name: string, hook: ApprovalDecidedHook): void {
  hooks().set(name, hook);
}

export async function runApprovalDecidedHooks(tx: Db, request: ApprovalRequest): Promise<void> {
  for (const hook of hooks().values()) await hook(tx, request);
}
