-- The request that created a prepaid reservation: a digest of its API key and Idempotency-Key (as the
-- funding and paywall request keys are kept). A reserve answers `created: true` only to that request (and
-- its own retries while the hold is held), and any other request reusing the reservation's key is told the
-- hold is not its own (lib/meters/reserve.ts). NULL for reservations made without the header, or before.
ALTER TABLE "meter_reservations" ADD COLUMN "request_key" TEXT;
