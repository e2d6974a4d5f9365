// The live-mode rule: owners and admins act in live mode (any live-mode write: keys, webhooks, refunds,
// members, settings, an OAuth grant) only from a session that proved their second factor since it was
// turned on: a sign-in with a code, or the session that turned it on. Live reads and test mode need none;
// developers and viewers need none. Refused: 403 FORBIDDEN, details.reason "two_factor_required".
import { hasRole } from "../accounts/roles";
import { DomainError } from "../errors";
import type { Dashboard } from "./session";

export const TWO_FACTOR_SETUP_PATH = "/dashboard/settings/security";

export class TwoFactorRequiredError extends DomainError {
  constructor(message: string) {
    super("FORBIDDEN", message, { reason: "two_factor_required" });
  }
}

/** Whether this dashboard must prove a second factor before a live-mode write. */
export function needsTwoFactorForLive(dashboard: Pick<Dashboard, "role" | "twoFactor">): boolean {
  return hasRole(dashboard.role, "admin") && !dashboard.twoFactor.verified;
}

/** Throws for a live-mode write by an owner or admin whose session has not proved a second factor. */
export function assertLiveWriteAllowed(dashboard: Pick<Dashboard, "role" | "twoFactor">, livemode: boolean): void {
  if (!livemode || !needsTwoFactorForLive(dashboard)) return;
  throw new TwoFactorRequiredError(
    dashboard.twoFactor.enabled
      ? "Sign in again with your authentication code to make changes in live mode."
      : `Turn on two-factor authentication (${TWO_FACTOR_SETUP_PATH}) to make changes in live mode.`,
  );
}
