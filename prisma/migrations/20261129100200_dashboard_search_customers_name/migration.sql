-- The dashboard's search by a customer's name (20261129100000_dashboard_search_trigram says why and how).
CREATE INDEX CONCURRENTLY "customers_name_search_idx" ON "customers" USING gin ("merchant_id", "livemode", "name" gin_trgm_ops) WHERE "name" IS NOT NULL;
