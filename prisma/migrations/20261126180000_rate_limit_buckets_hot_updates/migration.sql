-- Token buckets: every request of a key rewrites that key's one row. The index on updated_at (a column each
-- take changes) made those updates non-HOT: each left a dead tuple chain in the heap and new entries in both
-- indexes until vacuum came by. Without it, and with half of each page kept free (fillfactor), the updates
-- are HOT: the new version stays on the row's page and the page prunes its own dead versions. UNLOGGED: no
-- WAL and no commit flush for a row rewritten per request. After a crash the table is empty, and a missing
-- bucket is a full one. The idle-bucket purge scans the table instead (one row per active key or IP).
DROP INDEX "rate_limit_buckets_updated_at_idx";
ALTER TABLE "rate_limit_buckets" SET (fillfactor = 50);
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
