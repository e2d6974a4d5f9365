-- ACP 2026-01-30 and 2026-04-17 (docs/acp.md "Versions"): what an agent declared (capabilities), the discount
-- codes it asked for, when an open session expires, and the quote a completion charged (shown from then on).
ALTER TABLE "acp_checkout_sessions" ADD COLUMN "capabilities" JSONB;
ALTER TABLE "acp_checkout_sessions" ADD COLUMN "discount_codes" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "acp_checkout_sessions" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "acp_checkout_sessions" ADD COLUMN "completed_quote" JSONB;

-- A product that ships (a physical good) is offered the merchant's shipping rate, not digital delivery.
ALTER TABLE "products" ADD COLUMN "requires_shipping" BOOLEAN NOT NULL DEFAULT false;

-- A merchant's ACP pricing settings per mode: one flat shipping rate (minor units of the cart's currency, null: no
-- shipping offered) and tax rates per ISO country in basis points.
CREATE TABLE "acp_commerce_settings" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "shipping_rate" INTEGER,
    "tax_rates" JSONB NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "acp_commerce_settings_pkey" PRIMARY KEY ("merchant_id", "livemode"),
    CONSTRAINT "acp_commerce_settings_shipping_rate_check" CHECK ("shipping_rate" IS NULL OR "shipping_rate" >= 0)
);

ALTER TABLE "acp_commerce_settings" ADD CONSTRAINT "acp_commerce_settings_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A discount code agents may apply through ACP's discount extension: a percentage or a fixed amount off the items.
CREATE TABLE "acp_discount_codes" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "percent_off" INTEGER,
    "amount_off" INTEGER,
    "currency" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "acp_discount_codes_pkey" PRIMARY KEY ("merchant_id", "livemode", "code"),
    CONSTRAINT "acp_discount_codes_one_kind_check" CHECK (
        ("percent_off" BETWEEN 1 AND 100 AND "amount_off" IS NULL AND "currency" IS NULL)
        OR ("percent_off" IS NULL AND "amount_off" > 0 AND "currency" IS NOT NULL))
);

ALTER TABLE "acp_discount_codes" ADD CONSTRAINT "acp_discount_codes_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
