-- Ids made by the database, in the format of lib/ids.ts (prefix, '_', 24 base62 characters, uniformly
-- random from a CSPRNG): the webhook fan-out inserts its deliveries with one INSERT ... SELECT
-- (lib/webhooks/fan-out.ts) instead of making each id in the application.
-- gen_random_uuid() draws from pg_strong_random, and its bytes 0-5 and 10-15 are all random (6 and 8 carry the
-- version and variant bits). Twelve random bytes in base64 are 16 characters each uniform over 64 symbols
-- (A-Z a-z 0-9 + /), and dropping '+' and '/' is rejection sampling: what is left is uniform over base62.
-- (The body is an E'' string with each semicolon written \073 and each quote \047: the JS schema engine
-- splits scripts at every semicolon.)
CREATE FUNCTION aps_random_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS E'
DECLARE
  out text := \047\047\073
  u bytea\073
BEGIN
  WHILE length(out) < 24 LOOP
    u := uuid_send(gen_random_uuid())\073
    out := out || translate(encode(substring(u FROM 1 FOR 6) || substring(u FROM 11 FOR 6), \047base64\047), \047+/\047, \047\047)\073
  END LOOP\073
  RETURN prefix || \047_\047 || left(out, 24)\073
END
';
