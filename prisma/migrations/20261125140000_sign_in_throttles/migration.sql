-- Sign-in back-off per account (lib/auth/limits.ts): attempts on one email not (yet) followed by a
-- success, across every client IP, and until when further attempts are refused. Keyed by the
-- normalised email whether or not it has an account (so the table never tells which do).
CREATE TABLE "sign_in_throttles" (
    "email" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "blocked_until" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("email")
);

CREATE INDEX "sign_in_throttles_last_attempt_at_idx" ON "sign_in_throttles"("last_attempt_at");
