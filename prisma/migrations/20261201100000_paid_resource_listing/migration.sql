-- Discovery of hosted paid resources (docs/x402.md, "Discovery"): a resource is listed only when its merchant says so,
-- and may carry the discovery metadata its x402 402 declares in the `bazaar` extension.
ALTER TABLE "paid_resources" ADD COLUMN "listed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "paid_resources" ADD COLUMN "discovery" JSONB;

-- The deployment's listing (GET /x402/discovery/resources, /mpp/openapi.json): listed, active resources of one mode, oldest first.
CREATE INDEX "paid_resources_listed_idx" ON "paid_resources" ("livemode", "created_at", "id") WHERE "listed" AND "active";
