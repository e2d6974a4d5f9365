// What may have been left in an account lately: the API keys and webhook endpoints created in the last
// 30 days in the merchants a user belongs to, for the password reset mail (lib/auth/email-links.ts), so
// that someone whose password was taken sees what an intruder may have added, and where to review it.
// Secrets never appear: a key by its name and masked prefix...last4, an endpoint by its host.
import type { Db } from "../db";
import { env } from "../env";
import { merchantIdsOfUser } from "./merchant-users";

export const RECENT_DAYS = 30;
/** Rows listed per kind at most (the pages list them all). */
const LISTED = 20;

interface KeyRow {
  name: string | null;
  prefix: string;
  last4: string;
  livemode: boolean;
  created_at: Date;
  revoked_at: Date | null;
}
interface EndpointRow {
  url: string;
  livemode: boolean;
  created_at: Date;
}

/** Text a person typed into a key's name can be anything: no link in a mail is made of it. */
const inert = (text: string) =>
  text
    .replace(/[a-z][a-z0-9+.-]*:\/\//gi, "")
    .replace(/\s+/g, " ")
    .slice(0, 60);

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unreadable URL)";
  }
}

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const mode = (livemode: boolean) => (livemode ? "live" : "test");

/** The paragraph of the reset mail: what was created in the last 30 days and the pages to review it. */
export async function recentAdditionsText(tx: Db, userId: string): Promise<string> {
  const keys = await tx.$queryRaw<KeyRow[]>`
    SELECT name, prefix, last4, livemode, created_at, revoked_at FROM api_keys
     WHERE merchant_id IN (${merchantIdsOfUser(userId)}) AND created_at > now() - make_interval(days => ${RECENT_DAYS})
     ORDER BY created_at DESC LIMIT ${LISTED}`;
  const endpoints = await tx.$queryRaw<EndpointRow[]>`
    SELECT url, livemode, created_at FROM webhook_endpoints
     WHERE merchant_id IN (${merchantIdsOfUser(userId)}) AND created_at > now() - make_interval(days => ${RECENT_DAYS})
     ORDER BY created_at DESC LIMIT ${LISTED}`;
  const base = env.BASE_URL.replace(/\/$/, "");
  const lines = [`Created in your account in the last ${RECENT_DAYS} days (if you do not recognise one, revoke or delete it):`, ""];
  lines.push("API keys:");
  if (keys.length === 0) lines.push("- none");
  for (const key of keys)
    lines.push(
      `- ${key.name ? `"${inert(key.name)}" ` : ""}${key.prefix}...${key.last4} (${mode(key.livemode)} mode), created ${when(key.created_at)}${key.revoked_at ? ", revoked" : ""}`,
    );
  lines.push(`Review them: ${base}/dashboard/api-keys`, "", "Webhook endpoints:");
  if (endpoints.length === 0) lines.push("- none");
  for (const endpoint of endpoints)
    lines.push(`- to ${inert(hostOf(endpoint.url))} (${mode(endpoint.livemode)} mode), created ${when(endpoint.created_at)}`);
  lines.push(`Review them: ${base}/dashboard/webhooks`);
  return lines.join("\n");
}
