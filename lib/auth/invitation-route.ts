// POST /api/account/invitations/accept: the invitation page's form. Public (the invited may have no account
// yet), so the client IP's token is taken before anything else, scrypt included (pipeline byClientIp); JSON
// body checked by zod (400), errors in the API's contract. With a name and password it creates the account
// (hashed before its own transaction opens: transaction false); without, the signed-in user joins, and then
// only from this site (Origin): a cross-site form cannot make a signed-in user join a team.
import { getServerSession } from "next-auth";
import { originOf } from "../accounts/activity";
import { authOptions } from "./options";
import { liveSessionAccount } from "./sessions";
import { PasswordHashBusyError } from "../crypto/password";
import { ForbiddenError, RateLimitedError, UnauthorizedError, ValidationError } from "../errors";
import { clientIp } from "../http/client-ip";
import { byClientIp, pipeline, type Steps } from "../http/pipeline";
import { isSameOrigin } from "../security/same-origin";
import { AcceptInvitationBody, acceptAsNewUser, acceptAsSignedInUser } from "./accept-invitation";

const PUBLIC: Steps<undefined> = { authenticate: byClientIp, claims: false, headers: { "Cache-Control": "no-store" } };

export const acceptInvitationRoute = pipeline(PUBLIC, { body: AcceptInvitationBody, transaction: false }, async ({ body, req }) => {
  const origin = originOf(req.headers, clientIp(req));
  if (body.password !== undefined || body.name !== undefined) {
    if (!body.name || !body.password)
      throw new ValidationError("Enter your name and a password.", [{ path: body.name ? "password" : "name", message: "Required." }]);
    try {
      return await acceptAsNewUser({ token: body.token, name: body.name, password: body.password }, origin);
    } catch (err) {
      if (err instanceof PasswordHashBusyError) throw new RateLimitedError(1);
      throw err;
    }
  }
  if (!isSameOrigin(req)) throw new ForbiddenError("Cross-site request refused: the Origin header is not this service.");
  const session = await getServerSession(authOptions);
  const user = session?.sid && session.userId ? await liveSessionAccount(session.sid, session.userId) : null;
  if (!user) throw new UnauthorizedError("Sign in with the invited address first.");
  return acceptAsSignedInUser(body.token, { ...user, sid: session!.sid }, origin);
});
