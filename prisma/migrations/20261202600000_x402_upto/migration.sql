-- Issue 34, item 1: x402 upto, usage-priced resources. The payer authorizes max_amount and is charged the usage
-- the merchant server reports (X-Usage-Units x unit_amount, whole cents, at most max_amount), amount = max_amount.
ALTER TABLE "paid_resources" ADD COLUMN "scheme" TEXT NOT NULL DEFAULT 'exact';
ALTER TABLE "paid_resources" ADD COLUMN "max_amount" INTEGER;
ALTER TABLE "paid_resources" ADD COLUMN "unit_amount" INTEGER;
ALTER TABLE "paid_resources" ADD CONSTRAINT "paid_resources_scheme_check" CHECK (
  ("scheme" = 'exact' AND "max_amount" IS NULL AND "unit_amount" IS NULL)
  OR ("scheme" = 'upto' AND "url" IS NOT NULL AND "unit_amount" > 0 AND "max_amount" >= "unit_amount" AND "amount" = "max_amount")
);
