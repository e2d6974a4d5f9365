// Team invitations and membership changes (docs/dashboard.md, "Team"), over HTTP against the real server
// and database: the mailed link works once (also when sent many times at once) and expires; revoked
// links and those of a user who reset their password open nothing; an existing user joins after signing
// in with the invited address; only owners grant the owner role; the last owner can neither leave, be
// demoted nor be removed, even by concurrent requests; a removed member's session ends at once; each
// change writes its activity row.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { accountCall, dashboardCall, mailedToken, signInOverHttp, signUpOverHttp, uniqueEmail } from "../helpers/dashboard";
import { acceptInvitation, invite, newMember, selectedMerchant, sql, withCsrf, type Member } from "../helpers/team";

let owner: Member;
let merchantId: string;

async function signedUp(name: string): Promise<Member> {
  const s = await signUpOverHttp({ name });
  return withCsrf(s, s.email, s.password);
}

const patchRole = (by: Member, userId: string, role: string) =>
  dashboardCall(by.session, "PATCH", `/api/dashboard/team/members/${userId}`, { body: { role }, csrfToken: by.csrfToken });
const remove = (by: Member, userId: string) =>
  dashboardCall(by.session, "DELETE", `/api/dashboard/team/members/${userId}`, { body: {}, csrfToken: by.csrfToken });
const userIdOf = async (email: string) => (await sql<{ id: string }>("SELECT id FROM users WHERE email = $1", [email]))[0].id;
const activity = (action: string) =>
  sql<{ detail: Record<string, unknown> }>("SELECT detail FROM account_activity WHERE merchant_id = $1 AND action = $2", [
    merchantId,
    action,
  ]);

beforeAll(async () => {
  owner = await signedUp("Invite Imports");
  merchantId = (await selectedMerchant(owner.session)).merchantId!;
});

describe("sign-up", () => {
  it("makes the new user the owner of the new merchant", async () => {
    expect(await sql("SELECT role FROM memberships WHERE merchant_id = $1", [merchantId])).toEqual([{ role: "owner" }]);
  });
});

describe("invitation links", () => {
  it("create a confirmed account with a name and password, once; the token is stored hashed", async () => {
    const email = uniqueEmail();
    const { invitation, token } = await invite(owner, email, "developer");
    expect(invitation).toMatchObject({ email, role: "developer" });
    const [row] = await sql("SELECT token_hash FROM invitations WHERE id = $1", [invitation.id]);
    expect(row.token_hash).not.toContain(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);

    // Ten at once: exactly one creates the account.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => acceptInvitation({ token, name: "Dee Veloper", password: "a-good-password-1" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(410)]);
    expect(answers.find((a) => a.status === 410)!.body.error.code).toBe("GONE");
    const session = await signInOverHttp(email, "a-good-password-1");
    expect((await selectedMerchant(session)).merchantId).toBe(merchantId);
    expect(
      await sql(
        "SELECT m.role, u.name, u.email_confirmed_at IS NOT NULL AS confirmed FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1",
        [email],
      ),
    ).toEqual([{ role: "developer", name: "Dee Veloper", confirmed: true }]);
    expect((await activity("member_invited")).map((a) => a.detail.invitationId)).toContain(invitation.id);
    expect((await activity("member_joined")).map((a) => a.detail.invitationId)).toContain(invitation.id);
  });

  it("expire, and a revoked one opens nothing", async () => {
    const expired = await invite(owner, uniqueEmail(), "viewer");
    await sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.invitation.id]);
    expect(await acceptInvitation({ token: expired.token, name: "Late", password: "a-good-password-1" })).toMatchObject({
      status: 410,
      body: { error: { code: "GONE" } },
    });

    const revoked = await invite(owner, uniqueEmail(), "viewer");
    const revoke = (id: string) =>
      dashboardCall(owner.session, "POST", `/api/dashboard/team/invitations/${id}/revoke`, { body: {}, csrfToken: owner.csrfToken });
    expect((await revoke(revoked.invitation.id)).status).toBe(200);
    expect((await revoke(revoked.invitation.id)).body.error).toMatchObject({ code: "CONFLICT" });
    expect((await acceptInvitation({ token: revoked.token, name: "Nope", password: "a-good-password-1" })).status).toBe(410);
    expect((await activity("invitation_revoked")).map((a) => a.detail.invitationId)).toContain(revoked.invitation.id);
  });

  it("refuse bad input with a 4xx in the error contract", async () => {
    expect((await acceptInvitation({ token: "x".repeat(43), name: "A", password: "a-good-password-1" })).status).toBe(410);
    expect((await acceptInvitation({ token: "t", name: "A", password: "short" })).body.error.code).toBe("VALIDATION_ERROR");
    expect((await acceptInvitation({ token: "t", password: "a-good-password-1" })).body.error.code).toBe("VALIDATION_ERROR");
    expect((await acceptInvitation({})).status).toBe(400);
    expect((await acceptInvitation({ token: "t" })).status).toBe(401); // no account form, not signed in
  });

  it("an existing user joins after signing in with the invited address, and the session selects the team", async () => {
    const invited = await signedUp("Their Own Shop");
    const other = await signedUp("Someone Else");
    const { token } = await invite(owner, invited.email, "admin");
    // The account form is not for an address that has an account.
    expect((await acceptInvitation({ token, name: "X", password: "a-good-password-1" })).body.error).toMatchObject({
      code: "CONFLICT",
      details: { reason: "account_exists" },
    });
    expect((await acceptInvitation({ token }, other.session)).body.error).toMatchObject({
      code: "FORBIDDEN",
      details: { reason: "other_email" },
    });
    expect((await acceptInvitation({ token }, invited.session, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await acceptInvitation({ token }, invited.session)).status).toBe(200);
    expect((await acceptInvitation({ token }, invited.session)).status).toBe(410);
    expect(await selectedMerchant(invited.session)).toMatchObject({ merchantId, name: "Invite Imports" });
  });

  it("only an owner invites an owner", async () => {
    const admin = await newMember(owner, "admin");
    const refused = await dashboardCall(admin.session, "POST", "/api/dashboard/team/invitations", {
      body: { email: uniqueEmail(), role: "owner" },
      csrfToken: admin.csrfToken,
    });
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", details: { role: "owner" } });
    expect((await invite(owner, uniqueEmail(), "owner")).invitation.role).toBe("owner");
  });

  it("a password reset ends the pending invitations the user sent", async () => {
    const admin = await newMember(owner, "admin");
    const pending = await invite(admin, uniqueEmail(), "viewer");
    expect((await accountCall("forgot-password", { email: admin.email })).status).toBe(202);
    const resetToken = await mailedToken(admin.email, "reset_password");
    expect((await accountCall("reset-password", { token: resetToken, password: `new-${randomBytes(6).toString("hex")}` })).status).toBe(
      200,
    );
    expect((await acceptInvitation({ token: pending.token, name: "Too late", password: "a-good-password-1" })).status).toBe(410);
  });
});

describe("roles and removal", () => {
  it("admins change roles below owner; only owners grant or change the owner role", async () => {
    const admin = await newMember(owner, "admin");
    const dev = await newMember(owner, "developer");
    expect((await patchRole(admin, dev.userId, "viewer")).body).toEqual({ userId: dev.userId, role: "viewer" });
    expect((await patchRole(admin, dev.userId, "owner")).body.error).toMatchObject({ code: "FORBIDDEN", details: { role: "owner" } });
    const ownerId = await userIdOf(owner.email);
    expect((await patchRole(admin, ownerId, "viewer")).status).toBe(403);
    expect((await remove(admin, ownerId)).status).toBe(403);
    expect((await patchRole(owner, dev.userId, "bogus")).body.error.code).toBe("VALIDATION_ERROR");
    expect((await patchRole(owner, "usr_000000000000000000000000", "viewer")).status).toBe(404);
    const changes = await activity("member_role_changed");
    expect(changes.map((c) => c.detail)).toContainEqual({ memberId: dev.userId, from: "developer", to: "viewer" });
  });

  it("the last owner can neither be demoted, removed nor leave", async () => {
    const solo = await signedUp("Solo Owner");
    const soloId = await userIdOf(solo.email);
    expect((await patchRole(solo, soloId, "admin")).body.error).toMatchObject({ code: "CONFLICT", details: { reason: "last_owner" } });
    expect((await remove(solo, soloId)).status).toBe(409);
    expect((await dashboardCall(solo.session, "POST", "/api/dashboard/team/leave", { body: {}, csrfToken: solo.csrfToken })).status).toBe(
      409,
    );
  });

  it("two owners demoting each other at the same time leave exactly one owner", async () => {
    const team = await signedUp("Two Owners");
    const teamId = (await selectedMerchant(team.session)).merchantId!;
    const second = await newMember(team, "owner");
    const firstId = await userIdOf(team.email);
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([patchRole(team, second.userId, "admin"), patchRole(second, firstId, "admin")]);
      // One wins. The other is refused by the last-owner rule (409), or, when the winner's change committed before
      // the loser's request was authorized, as an admin who may not change an owner (403): either way one owner stays.
      expect([
        [200, 403],
        [200, 409],
      ]).toContainEqual(answers.map((a) => a.status).sort());
      const owners = await sql("SELECT user_id FROM memberships WHERE merchant_id = $1 AND role = 'owner'", [teamId]);
      expect(owners).toHaveLength(1);
      // Whoever is still the owner makes the other one owner again for the next round.
      const stillOwner = owners[0].user_id === firstId ? team : second;
      const demoted = owners[0].user_id === firstId ? second.userId : firstId;
      expect((await patchRole(stillOwner, demoted, "owner")).status).toBe(200);
    }
    // And two removals at once, of each other: one stays.
    const removals = await Promise.all([remove(team, second.userId), remove(second, firstId)]);
    expect(removals.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await sql("SELECT role FROM memberships WHERE merchant_id = $1", [teamId])).toEqual([{ role: "owner" }]);
  });

  it("a removed member's session loses the team at once; a member may leave", async () => {
    const dev = await newMember(owner, "developer");
    expect((await remove(owner, dev.userId)).body).toEqual({ userId: dev.userId, removed: true });
    expect((await dashboardCall(dev.session, "GET", "/api/dashboard/payments/export")).status).toBe(401);
    expect((await activity("member_removed")).map((a) => a.detail.memberId)).toContain(dev.userId);

    const viewer = await newMember(owner, "viewer");
    expect(
      (await dashboardCall(viewer.session, "POST", "/api/dashboard/team/leave", { body: {}, csrfToken: viewer.csrfToken })).status,
    ).toBe(200);
    expect(await sql("SELECT 1 FROM memberships WHERE user_id = $1", [viewer.userId])).toEqual([]);
  });
});
