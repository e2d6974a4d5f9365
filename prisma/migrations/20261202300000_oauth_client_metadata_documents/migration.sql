-- Client ID metadata documents (docs/oauth-and-mcp.md): a client whose client_id is an HTTPS URL is stored as an
-- oauth_clients row with that URL as its id, its fetched document as its metadata, and the time its cached copy
-- expires (NULL for clients registered through /oauth/register).
ALTER TABLE "oauth_clients" ADD COLUMN "document_expires_at" TIMESTAMPTZ(3);
