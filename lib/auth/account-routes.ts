// The three unauthenticated account endpoints behind the emailed links (docs/dashboard.md, "Email
// links"): POST /api/account/forgot-password, /reset-password and /confirm-email. JSON only (a
// cross-site form cannot send application/json without a CORS preflight, which we never allow), bodies
// of at most 4 KiB, and bad input is a clear 4xx, never a 500. Tokens and passwords are never logged.
import { createId } from "../ids";
import { clientIp, clientIpKey } from "../http/client-ip";
import { originOf } from "../accounts/activity";
import { readJsonBody } from "../http/read-body";
import { parseForgotPassword, requestPasswordReset, resetPassword, ResetInput } from "./email-links";
import { ConfirmInput, confirmSignUp } from "./pending-sign-ups";
import { takePasswordResetRequest } from "./limits";
import { PASSWORD_MIN_LENGTH } from "./messages";
import { PasswordHashBusyError } from "../crypto/password";
import { findNulPath } from "../validation/text-safety";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers } });

const invalid = (message: string) => json(400, { error: { type: "invalid_request_error", message } });

/** Reads the JSON body, then runs the endpoint; anything unexpected is logged (without the body) and answered 500. */
function accountRoute(name: string, work: (body: unknown, req: Request) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      return json(415, { error: { type: "invalid_request_error", message: "Send the body as application/json." } });
    }
    let body: unknown;
    try {
      body = await readJsonBody(req, 4096);
    } catch {
      return invalid("The request body is not valid JSON (at most 4 KiB).");
    }
    try {
      return await work(body, req);
    } catch (err) {
      if (err instanceof PasswordHashBusyError)
        return json(
          503,
          { error: { type: "api_error", message: "The server is busy. Try again in a few seconds." } },
          { "Retry-After": "1" },
        );
      console.error(`[${createId("request")}] ${name} failed:`, err instanceof Error ? (err.stack ?? err.message) : err);
      return json(500, { error: { type: "api_error", message: "Something went wrong on our side. Try again in a moment." } });
    }
  };
}

/** The same answer whether or not the email has an account. */
export const forgotPasswordRoute = accountRoute("forgot-password", async (body, req) => {
  const email = parseForgotPassword(body);
  if (!email) return invalid("Enter a valid email address.");
  const verdict = await takePasswordResetRequest(clientIpKey(req), email);
  if (!verdict.allowed) {
    return json(
      429,
      { error: { type: "rate_limit_error", message: "Too many requests. Wait a few minutes, then try again." } },
      { "Retry-After": String(verdict.retryAfterSeconds) },
    );
  }
  await requestPasswordReset(email);
  return json(202, {
    status: "sent",
    message: "If an account uses this email, we sent it a link to reset the password. The link works for 1 hour.",
  });
});

export const resetPasswordRoute = accountRoute("reset-password", async (body) => {
  const input = findNulPath(body) === null ? ResetInput.safeParse(body) : null;
  if (!input?.success) return invalid(`Choose a password of at least ${PASSWORD_MIN_LENGTH} characters (and open the link from the mail).`);
  if ((await resetPassword(input.data)) === "invalid")
    return json(400, {
      error: {
        type: "invalid_request_error",
        code: "link_invalid",
        message: "This link has expired or was already used. Ask for a new one.",
      },
    });
  return json(200, { status: "reset", message: "Your password is changed and every session signed out. Sign in with the new password." });
});

export const confirmEmailRoute = accountRoute("confirm-email", async (body, req) => {
  const input = findNulPath(body) === null ? ConfirmInput.safeParse(body) : null;
  if (!input?.success) return invalid("Enter the password you chose when you signed up (and open the link from the mail).");
  const outcome = await confirmSignUp(input.data, originOf(req.headers, clientIp(req)));
  if (outcome === "invalid")
    return json(400, {
      error: {
        type: "invalid_request_error",
        code: "link_invalid",
        message: "This link has expired or was already used. Sign up again with the same email to get a new one.",
      },
    });
  if (outcome === "wrong_password")
    return json(400, {
      error: {
        type: "invalid_request_error",
        code: "wrong_password",
        message:
          "That is not the password of the sign-up this link belongs to. Enter the password you chose, or open the newest mail: each sign-up has its own link.",
      },
    });
  if (outcome === "taken")
    return json(409, {
      error: {
        type: "invalid_request_error",
        code: "email_taken",
        message: "This email already has an account: nothing changed. Sign in, or reset the password if you forgot it.",
      },
    });
  return json(200, { status: "confirmed", message: "Your email is confirmed and your account created. Sign in to continue." });
});
