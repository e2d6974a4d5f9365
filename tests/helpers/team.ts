// Teams over HTTP (docs/dashboard.md, "Team"): invitations sent from a member's dashboard, read from the
// dev mail viewer, accepted as a new account or by a signed-in user; switching merchants.
import pg from "pg";
import { randomBytes } from "node:crypto";
import { dashboardCall, dashboardPage, mailedToken, signInOverHttp, uniqueEmail, type DashboardSession } from "./dashboard";
import { baseUrl } from "./http";

export type Role = "owner" | "admin" | "developer" | "viewer";

/** A signed-in dashboard user with the CSRF token of its page. */
export interface Member {
  session: DashboardSession;
  csrfToken: string;
  email: string;
  password: string;
}

export async function sql<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

export async function withCsrf(session: DashboardSession, email: string, password: string): Promise<Member> {
  const page = await dashboardPage(session);
  if (!page.csrfToken) throw new Error(`dashboard page: ${page.status} ${page.location}`);
  return { session, csrfToken: page.csrfToken, email, password };
}

/** POST /api/account/invitations/accept (the invitation page's form). */
export async function acceptInvitation(body: unknown, session?: DashboardSession | null, headers: Record<string, string> = {}) {
  const base = session?.base ?? baseUrl();
  const res = await fetch(`${base}/api/account/invitations/accept`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, ...(session ? { Cookie: session.cookie } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** `by` invites `email` with `role`; returns the invitation and the link's token (from the mail). */
export async function invite(by: Member, email: string, role: Role) {
  const sent = await dashboardCall(by.session, "POST", "/api/dashboard/team/invitations", {
    body: { email, role },
    csrfToken: by.csrfToken,
  });
  if (sent.status !== 201) throw new Error(`invite: ${sent.status} ${JSON.stringify(sent.body)}`);
  const token = await mailedToken(email, "invitation", by.session.base);
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return { invitation: sent.body as { id: string; email: string; role: Role }, token };
}

/** A new person joins `by`'s team with `role` through the mailed link (a new account), then signs in. */
export async function newMember(by: Member, role: Role): Promise<Member & { userId: string }> {
  const email = uniqueEmail();
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const { token } = await invite(by, email, role);
  const accepted = await acceptInvitation({ token, name: `Member ${role}`, password });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const member = await withCsrf(await signInOverHttp(email, password, by.session.base), email, password);
  const [{ id }] = await sql<{ id: string }>("SELECT id FROM users WHERE email = $1", [email]);
  return { ...member, userId: id };
}

/** The merchant the page shows (its <meta>) and the merchant name in the top bar. */
export async function selectedMerchant(session: DashboardSession) {
  const page = await dashboardPage(session);
  return {
    merchantId: /<meta name="aps-dashboard-merchant" content="([^"]+)"/.exec(page.html)?.[1] ?? null,
    name: /data-testid="merchant-name"[^>]*>([^<]*)</.exec(page.html)?.[1] ?? null,
  };
}
