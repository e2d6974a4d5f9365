-- An AP2 v0.2 buyer key may name the payer's spending agent whose mandates it signs (docs/a2a.md "AP2 v0.2"):
-- every charge under a mandate the key signed then counts against that agent's policy.
ALTER TABLE "ap2_buyer_keys" ADD COLUMN "spending_agent_id" TEXT;
