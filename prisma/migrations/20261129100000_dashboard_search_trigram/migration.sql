-- Issue 38: the dashboard's search (lib/dashboard/search.ts) finds customers by email or name and orders by their
-- checkout's description with `ILIKE '%text%'`, in one merchant and mode. No btree serves a match in the middle of
-- a string: a rare term read every row of the merchant (4 s at 4 million customers). A trigram GIN index (pg_trgm)
-- serves it, and with the scope's columns in the same index (btree_gin's operator classes for text and boolean) it
-- finds only this merchant's matches: a term common among other merchants' rows costs nothing here. Both
-- extensions are trusted (PostgreSQL 13+): the database's owner may create them, no superuser needed. No semicolon in
-- these comments: the JS schema engine splits a script at each one.
-- The three indexes follow, each alone in its migration and built CONCURRENTLY, as 20261128040000 (checkouts and
-- customers keep being written while they build: minutes on millions of rows). Partial: a row without that text
-- can never match (and, like the migrations' other partial indexes, Prisma's schema does not describe them and
-- `prisma migrate diff` leaves them alone, as prisma/schema.prisma says on the models).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
