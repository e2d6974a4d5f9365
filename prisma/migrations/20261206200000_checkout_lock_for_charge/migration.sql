-- Issue 38: a checkout's capture (and cancel) locks the checkout, then reads its PaymentIntent and whether a charge
-- attempt of it is pending, in one round trip (lib/checkouts/lock-checkout.ts lockCheckoutForCharge). One SQL
-- statement could not do both: its reads would use the snapshot taken when it began, before it waited for the lock,
-- and miss an attempt that the lock's holder committed (on its own connection, before its rail call) and then rolled
-- back. A VOLATILE function takes a fresh snapshot for each query it runs (READ COMMITTED), so its read, which runs
-- once the lock is held, sees every attempt committed before, as a second statement would.
CREATE FUNCTION checkout_lock_for_charge(locked_id TEXT)
  RETURNS TABLE (checkout checkouts, overdue BOOLEAN, payment_intent payment_intents, pending_attempt BOOLEAN)
  LANGUAGE plpgsql VOLATILE AS E'
DECLARE
  locked checkouts\073
BEGIN
  SELECT * INTO locked FROM checkouts c WHERE c.id = locked_id FOR UPDATE\073
  IF NOT FOUND THEN
    RETURN\073
  END IF\073
  RETURN QUERY
    SELECT locked, locked.expires_at <= now(), p,
           EXISTS (SELECT 1 FROM payment_attempts a WHERE a.payment_intent_id = p.id AND a.status = \047pending\047)
      FROM payment_intents p WHERE p.id = locked.payment_intent_id\073
END
';
