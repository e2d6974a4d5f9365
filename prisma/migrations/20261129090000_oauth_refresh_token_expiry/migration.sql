-- The tick's purge of OAuth leftovers (lib/oauth/purge.ts) takes at most a batch of refresh tokens a day past
-- their expiry per tick, the oldest first: this index serves that batch, as the codes' and the access tokens'
-- expires_at indexes serve theirs. Refresh tokens are many (each refresh rotates one, and a rotated token is kept
-- until its expiry, OAUTH_REFRESH_TOKEN_TTL_SECONDS, 30 days by default, plus a day), so without it every tick
-- would scan them all. CONCURRENTLY, alone in its migration, as 20261128040000: token refreshes go on while it builds.
CREATE INDEX CONCURRENTLY "oauth_refresh_tokens_expires_at_idx" ON "oauth_refresh_tokens" ("expires_at");
