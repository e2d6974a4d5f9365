// The unauthenticated account endpoints behind the emailed links (docs/dashboard.md, "Email links"): POST
// /api/account/forgot-password, /reset-password and /confirm-email, on the request pipeline
// (lib/http/pipeline.ts). Their authentication step is the client IP's token from the account endpoints'
// bucket (lib/auth/limits.ts), taken before the input is judged and before any password hashing, so a
// flood is answered 429 and cannot fill the hashing gate that sign-in shares (lib/crypto/password.ts).
// Answers are in the error contract `{ error: { code, message, details } }` with RateLimit-* headers.
// JSON only (a cross-site form cannot send application/json without a CORS preflight, which we never
// allow: 415), bodies of at most 4 KiB. Tokens and passwords are never logged.
import { originOf, type RequestOrigin } from "../accounts/activity";
import { PasswordHashBusyError } from "../crypto/password";
import { ConflictError, DomainError, ValidationError } from "../errors";
import { errorResult, toErrorResult, type HttpResult } from "../http/errors";
import { clientIp, clientIpKey } from "../http/client-ip";
import { pipeline, Reply, type Authenticate, type Steps } from "../http/pipeline";
import { applyTakeResult } from "../http/rate-limit-step";
import { ForgotInput, requestPasswordReset, resetPassword, ResetInput } from "./email-links";
import { takeAccountRequest, takePasswordResetEmail } from "./limits";
import { ConfirmInput, confirmSignUp } from "./pending-sign-ups";

/** Not JSON: answered 415 in the contract's shape. */
class NotJsonError extends ValidationError {
  constructor() {
    super("Send the body as application/json.", [{ path: "", message: "Content-Type must be application/json" }]);
  }
}

/** The client IP's token (or 429), then JSON only; the caller is where the request came from. */
const byAccountIp: Authenticate<RequestOrigin> = async (req, headers) => {
  applyTakeResult(await takeAccountRequest(clientIpKey(req)), headers);
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) throw new NotJsonError();
  return { caller: originOf(req.headers, clientIp(req)) };
};

/** The contract's shape; a field error's own words become the message (the pages show it as it is). */
function accountErrorResult(err: unknown, requestId: string, headers: Headers): HttpResult {
  if (err instanceof PasswordHashBusyError) {
    headers.set("Retry-After", "1");
    return errorResult("CIRCUIT_OPEN", "The server is busy. Try again in a few seconds.", { reason: "password_hashing_busy" });
  }
  if (err instanceof NotJsonError) return { status: 415, body: errorResult(err.code, err.message, err.details).body };
  if (err instanceof ValidationError && err.message.startsWith("Invalid request body")) {
    const [first] = (err.details.fields ?? []) as { message: string }[];
    return errorResult(err.code, first?.message ?? err.message, err.details);
  }
  return toErrorResult(err, requestId);
}

const ACCOUNT: Steps<RequestOrigin> = {
  authenticate: byAccountIp,
  claims: false,
  headers: { "Cache-Control": "no-store" },
  errorResult: accountErrorResult,
};

const OPTIONS = { bodyLimitBytes: 4096, transaction: false, idempotent: false } as const;

const linkInvalid = (message: string) =>
  new DomainError("VALIDATION_ERROR", message, { reason: "link_invalid", fields: [{ path: "token", message }] });

/** The same answer whether or not the email has an account. */
export const forgotPasswordRoute = pipeline(ACCOUNT, { ...OPTIONS, body: ForgotInput }, async ({ body, headers }) => {
  const perEmail = await takePasswordResetEmail(body.email);
  if (!perEmail.allowed) applyTakeResult(perEmail, headers);
  await requestPasswordReset(body.email);
  return new Reply(202, {
    status: "sent",
    message: "If an account uses this email, we sent it a link to reset the password. The link works for 1 hour.",
  });
});

export const resetPasswordRoute = pipeline(ACCOUNT, { ...OPTIONS, body: ResetInput }, async ({ body, caller }) => {
  if ((await resetPassword(body, caller)) === "invalid") throw linkInvalid("This link has expired or was already used. Ask for a new one.");
  return {
    status: "reset",
    message: "Your password is changed, every session signed out and every connected app disconnected. Sign in with the new password.",
  };
});

export const confirmEmailRoute = pipeline(ACCOUNT, { ...OPTIONS, body: ConfirmInput }, async ({ body, caller }) => {
  const outcome = await confirmSignUp(body, caller);
  if (outcome === "invalid")
    throw linkInvalid("This link has expired or was already used. Sign up again with the same email to get a new one.");
  if (outcome === "wrong_password") {
    const message =
      "That is not the password of the sign-up this link belongs to. Enter the password you chose, or open the newest mail: each sign-up has its own link.";
    throw new DomainError("VALIDATION_ERROR", message, { reason: "wrong_password", fields: [{ path: "password", message }] });
  }
  if (outcome === "taken")
    throw new ConflictError("This email already has an account: nothing changed. Sign in, or reset the password if you forgot it.", {
      reason: "email_taken",
    });
  return { status: "confirmed", message: "Your email is confirmed and your account created. Sign in to continue." };
});
