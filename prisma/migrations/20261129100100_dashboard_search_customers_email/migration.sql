-- The dashboard's search by a customer's email (20261129100000_dashboard_search_trigram says why and how).
CREATE INDEX CONCURRENTLY "customers_email_search_idx" ON "customers" USING gin ("merchant_id", "livemode", "email" gin_trgm_ops) WHERE "email" IS NOT NULL;
