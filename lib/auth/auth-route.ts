// next-auth's route handler with honest statuses. next-auth answers every refused Credentials sign-in 401
// (`{ url: ".../login?error=CODE" }` to the page's script); a refusal for load is not a wrong password,
// so a JSON answer carrying RATE_LIMITED becomes 429 and BUSY 503, with Retry-After. The seconds come
// from the attempt itself (lib/auth/credentials.ts notes them in this request's context). A plain form
// post keeps next-auth's redirect to the login page, which shows the message.
import { AsyncLocalStorage } from "node:async_hooks";
import { ownValue } from "../own-key";

interface AttemptContext {
  retryAfterSeconds?: number;
}

const attempts = new AsyncLocalStorage<AttemptContext>();

/** Called by the Credentials providers when they refuse for load: how long the client should wait. */
export function noteRetryAfter(seconds: number): void {
  const context = attempts.getStore();
  if (context) context.retryAfterSeconds = seconds;
}

// CHECK_EMAIL is the answer of every well-formed sign-up (lib/auth/credentials.ts): not a failure.
const STATUS_BY_ERROR: Record<string, number> = { RATE_LIMITED: 429, BUSY: 503, CHECK_EMAIL: 200 };

export function withAuthStatuses<C>(handler: (req: Request, context: C) => Promise<Response>) {
  return async (req: Request, context: C): Promise<Response> => {
    const attempt: AttemptContext = {};
    const res = await attempts.run(attempt, () => handler(req, context));
    if (res.status !== 401 || !(res.headers.get("content-type") ?? "").includes("application/json")) return res;
    const text = await res.text();
    let error: string | null = null;
    try {
      const { url } = JSON.parse(text) as { url?: string };
      error = url ? new URL(url, "http://local").searchParams.get("error") : null;
    } catch {
      // not next-auth's { url }: leave it as it is
    }
    const status = error ? ownValue(STATUS_BY_ERROR, error) : undefined;
    const headers = new Headers(res.headers);
    if (status === 429 || status === 503) headers.set("Retry-After", String(attempt.retryAfterSeconds ?? 1));
    return new Response(text, { status: status ?? res.status, headers });
  };
}
