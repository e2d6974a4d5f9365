-- The product catalog (docs/products.md): what a merchant sells, priced in integer minor units.
-- Archived products (active = false) stay readable but cannot be sold.
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "unit_amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "products_unit_amount_check" CHECK ("unit_amount" >= 0)
);

CREATE INDEX "products_merchant_id_livemode_created_at_id_idx" ON "products"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

ALTER TABLE "products" ADD CONSTRAINT "products_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
