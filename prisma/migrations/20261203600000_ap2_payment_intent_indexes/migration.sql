-- A receipt names the AP2 mandate its payment was made under (lib/receipts/receipt-mandate.ts): found by the payment
CREATE INDEX "ap2_checkouts_payment_intent_id_idx" ON "ap2_checkouts"("payment_intent_id");
CREATE INDEX "ap2_mandates_payment_intent_id_idx" ON "ap2_mandates"("payment_intent_id");
