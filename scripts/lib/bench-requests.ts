// Requests the benchmarks share: `npm run bench`'s `post` case is also what `npm run bench:soak` sends.
import { randomUUID } from "node:crypto";
import type autocannon from "autocannon";

/** POST /v1/customers with a fresh Idempotency-Key per request (auth, rate limit, idempotency claim, insert). */
export function postCustomerOptions(baseUrl: string, auth: Record<string, string>): Partial<autocannon.Options> {
  return {
    url: `${baseUrl}/v1/customers`,
    method: "POST",
    headers: auth,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, "idempotency-key": randomUUID() },
          body: JSON.stringify({ name: "bench", email: "bench@example.com" }),
        }),
      },
    ],
  };
}
