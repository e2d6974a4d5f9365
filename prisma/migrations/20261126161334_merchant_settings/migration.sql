-- Account settings of the dashboard's Settings page: the pay page's brand colour and logo, and the time
-- zone the dashboard shows times in.
ALTER TABLE "merchants" ADD COLUMN "brand_color" TEXT, ADD COLUMN "logo_url" TEXT, ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
