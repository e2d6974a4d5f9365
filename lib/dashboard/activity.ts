// How the Activity page says each action of the account activity log (lib/accounts/activity.ts) in words,
// and its one-line summary of where a request came from. Unknown actions (added by later work) show as
// their name.
import { ownValue } from "../own-key";

const ACTION_LABELS: Record<string, string> = {
  sign_in: "Signed in",
  sign_in_failed: "Failed sign-in (wrong password)",
  password_reset: "Password reset by emailed link",
  password_changed: "Password changed",
  email_confirmed: "Email confirmed, account created",
  oauth_consent: "Connected an app (OAuth consent)",
  oauth_revoked: "Disconnected an app (OAuth revoked)",
  api_key_created: "API key created",
  api_key_revoked: "API key revoked",
  api_key_rolled: "API key rolled",
  two_factor_enabled: "Two-factor sign-in turned on",
  two_factor_disabled: "Two-factor sign-in turned off",
  recovery_code_used: "Recovery code used",
  member_invited: "Member invited",
  member_joined: "Member joined",
  member_role_changed: "Member's role changed",
  member_removed: "Member removed",
  invitation_revoked: "Invitation revoked",
};

export function activityLabel(action: string): string {
  return ownValue<string>(ACTION_LABELS, action) ?? action;
}

/** The detail worth a glance (an app's name, a mode, how the revoke came), never more than a short line. */
export function activitySummary(action: string, detail: Record<string, unknown>): string | null {
  const parts: string[] = [];
  if (typeof detail.clientName === "string") parts.push(detail.clientName);
  if (typeof detail.livemode === "boolean") parts.push(detail.livemode ? "live mode" : "test mode");
  if (detail.via === "client") parts.push("by the app");
  if (detail.via === "dashboard") parts.push("in the dashboard");
  if (action === "password_reset" && typeof detail.oauthGrantsRevoked === "number")
    parts.push(`${detail.oauthGrantsRevoked} connected app${detail.oauthGrantsRevoked === 1 ? "" : "s"} disconnected`);
  return parts.length ? parts.join(" · ").slice(0, 120) : null;
}

/** A User-Agent shortened to what a person recognises (the browser and system in its first words). */
export function shortUserAgent(userAgent: string | null): string {
  if (!userAgent) return "unknown client";
  return userAgent.length > 60 ? `${userAgent.slice(0, 57)}...` : userAgent;
}
