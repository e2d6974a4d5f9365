-- The dashboard's search by an order's description, its checkout's (20261129100000_dashboard_search_trigram says
-- why and how).
CREATE INDEX CONCURRENTLY "checkouts_description_search_idx" ON "checkouts" USING gin ("merchant_id", "livemode", "description" gin_trgm_ops) WHERE "description" IS NOT NULL;
