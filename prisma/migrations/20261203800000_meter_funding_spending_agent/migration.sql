-- A meter funding by a payer may name the spending agent it pays as (docs/meters.md): its policy is checked when the funding is charged
ALTER TABLE "payment_intents" ADD COLUMN "spending_agent_id" TEXT;
