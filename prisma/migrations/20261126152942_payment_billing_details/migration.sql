-- The payer's billing details as given at capture (the pay page's name on card and billing country),
-- shown on the dashboard's payment and order pages and in the PaymentIntent's billingDetails.
ALTER TABLE "payment_intents" ADD COLUMN "billing_name" TEXT, ADD COLUMN "billing_country" TEXT;
