-- Issue 38: the dashboard's search by an address typed around its @, `ada@exam` (lib/dashboard/search.ts,
-- customersMatching). Through the email trigram index such a term costs what its commonest trigrams cost: "exa", "com"
-- are in nearly every address, so the index reads the merchant's whole posting lists of those (17 ms at 500,000
-- customers, growing with them). An address that contains `ada@exam` has a local part (the text before its first @)
-- that ends with "ada", unless it has a second @ (the next migration): a btree on the reversed, lowercased local part
-- finds those in a few pages, whatever the merchant's size. Partial and built CONCURRENTLY as the trigram indexes
-- (20261129100000_dashboard_search_trigram says why).
CREATE INDEX CONCURRENTLY "customers_email_local_search_idx" ON "customers" ("merchant_id", "livemode", reverse(lower(split_part("email", '@', 1))) text_pattern_ops) WHERE "email" IS NOT NULL;
