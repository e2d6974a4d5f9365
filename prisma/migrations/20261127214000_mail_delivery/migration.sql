-- Mail over SMTP (issue 28, lib/mail/sender.ts): every outbox row gets a delivery status, attempts, the next
-- attempt's time, a lease while it is being sent, the last error and the time it was sent, and an HTML body.
ALTER TABLE "email_outbox" ADD COLUMN "html_body" TEXT;
-- Mails queued before this migration were never meant to leave: they stay the record, never sent.
ALTER TABLE "email_outbox" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'no_transport';
ALTER TABLE "email_outbox" ALTER COLUMN "status" SET DEFAULT 'pending';
ALTER TABLE "email_outbox" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "email_outbox" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "email_outbox" ADD COLUMN "locked_until" TIMESTAMPTZ(3);
ALTER TABLE "email_outbox" ADD COLUMN "last_error" TEXT;
ALTER TABLE "email_outbox" ADD COLUMN "sent_at" TIMESTAMPTZ(3);

-- The sender's claim looks only at rows still to send (a small set however long the record).
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" ("next_attempt_at") WHERE "status" IN ('pending', 'sending');

-- Wake on commit: NOTIFY aps_mail for every mail queued to send. Postgres delivers it to listeners only when
-- the inserting transaction commits (and folds a transaction's identical ones into one). (E'' body: each
-- semicolon written \073 and each quote \047, as the JS schema engine splits scripts at every semicolon.)
CREATE FUNCTION aps_notify_mail() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(\047aps_mail\047, \047\047)\073
  RETURN NULL\073
END
';

CREATE TRIGGER "email_outbox_notify" AFTER INSERT ON "email_outbox" FOR EACH ROW WHEN (NEW."status" = 'pending') EXECUTE FUNCTION aps_notify_mail();
