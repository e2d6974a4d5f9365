-- A meter funding paid by another merchant from one of ITS OWN customers' wallets (POST /v1/meters/:id/fund)
-- shows the payee payment_method 'customer_wallet'. The method the rail charges is kept here (internal, never
-- serialized), so a retry charges the same method under the same charge key.
ALTER TABLE "payment_intents" ADD COLUMN "rail_payment_method" TEXT;
