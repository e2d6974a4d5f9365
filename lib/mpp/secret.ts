// The key of the service's own MPP challenge ids (HMAC-SHA256, computed by mppx's Challenge.from), derived from
// SECRETS_ENCRYPTION_KEY so that every process of a deployment issues and accepts the same challenges (a random
// per-process key when unset, e.g. in a bare `next dev`). The realm is the host of BASE_URL.
import { createHmac, randomBytes } from "node:crypto";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

export function challengeSecret(): string {
  return globalSingleton("mpp.challenge-key", () =>
    (env.SECRETS_ENCRYPTION_KEY
      ? createHmac("sha256", env.SECRETS_ENCRYPTION_KEY).update("aps:mpp-challenge:v1").digest()
      : randomBytes(32)
    ).toString("hex"),
  );
}

/** The realm of the service's challenges: BASE_URL's host name (the same for every process behind one address). */
export function mppRealm(): string {
  return new URL(env.BASE_URL).hostname;
}
