-- A declined checkout's retry (the payer's "Try again with another card" on /pay): a new checkout with the
-- same terms, at most one per declined checkout (the unique index decides between two clicks).
ALTER TABLE "checkouts" ADD COLUMN "retry_of" TEXT;
CREATE UNIQUE INDEX "checkouts_retry_of_key" ON "checkouts"("retry_of");
