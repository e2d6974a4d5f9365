-- The dashboard's search by an address typed around its @ (20261205100000_dashboard_search_customers_email_local):
-- an address with two @ or more can hold the term at a later @, so the search also checks every such address of the
-- merchant, few (an email is not validated, but a second @ is rare): this index finds them.
CREATE INDEX CONCURRENTLY "customers_email_many_at_idx" ON "customers" ("merchant_id", "livemode") WHERE "email" LIKE '%@%@%';
