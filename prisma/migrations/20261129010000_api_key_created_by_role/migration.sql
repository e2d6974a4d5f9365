-- Issue 31: the role of the dashboard user who made a key (null: made with the merchant or by the operator CLI).
-- Only a key an owner made may change where live money goes (lib/x402/payout-addresses.ts).
ALTER TABLE "api_keys" ADD COLUMN "created_by_role" TEXT;
