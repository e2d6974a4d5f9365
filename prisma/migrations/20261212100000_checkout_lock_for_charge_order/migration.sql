-- Issue 38: the checkout's lock for a charge also locks and returns its PaymentIntent and its order
-- (lib/checkouts/lock-checkout.ts lockCheckoutForCharge). Held locked and read once the lock is held, the three rows
-- are the rows as they are until the commit, so an API capture plans its transitions from them and defers them to
-- its last statement (lib/checkouts/capture-checkout.ts), as x402's sale does with rows it inserted: one round trip
-- fewer. Locked checkout first, as every capture, cancel and expiry of a checkout locks it before its other rows.
-- The return type changes, so the function is dropped and made again, in this migration's transaction.
DROP FUNCTION checkout_lock_for_charge(TEXT);

CREATE FUNCTION checkout_lock_for_charge(locked_id TEXT)
  RETURNS TABLE (checkout checkouts, overdue BOOLEAN, payment_intent payment_intents, pending_attempt BOOLEAN, order_row orders)
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
           EXISTS (SELECT 1 FROM payment_attempts a WHERE a.payment_intent_id = p.id AND a.status = \047pending\047), o
      FROM payment_intents p JOIN orders o ON o.id = locked.order_id
     WHERE p.id = locked.payment_intent_id
       FOR UPDATE OF p, o\073
END
';
