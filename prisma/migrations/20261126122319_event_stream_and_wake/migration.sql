-- Live events (GET /v1/events/stream) and wake-on-commit for the webhook sender (issue 20).

-- A monotonic insert sequence: the stream's order, and with created_at its resume point for Last-Event-ID.
ALTER TABLE "events" ADD COLUMN "seq" BIGSERIAL NOT NULL;
CREATE INDEX "events_merchant_id_livemode_seq_idx" ON "events" ("merchant_id", "livemode", "seq");

-- NOTIFY on every event insert. Postgres delivers a notification to listeners only when (and if) the
-- inserting transaction commits, and folds identical ones of one transaction into one. (The body is an
-- E'' string with each semicolon written \073 and each quote \047: the JS schema engine splits scripts at
-- every semicolon.)
CREATE FUNCTION aps_notify_event() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(\047aps_events\047, NEW.merchant_id || \047:\047 || CASE WHEN NEW.livemode THEN \047live\047 ELSE \047test\047 END)\073
  RETURN NULL\073
END
';

CREATE TRIGGER "events_notify" AFTER INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION aps_notify_event();
