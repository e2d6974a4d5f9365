// RFC 7591 dynamic client registration (public, limited per IP, and per IP again in a registration bucket of
// its own): 201 with the client's metadata and client_id.
import { readBodyText } from "@/lib/http/read-body";
import { OAuthError } from "@/lib/oauth/errors";
import { json, OAUTH_BODY_LIMIT_BYTES, publicRoute } from "@/lib/oauth/public-route";
import { registerClient } from "@/lib/oauth/register-client";
import { takeRegistration } from "@/lib/oauth/register-limit";

export const POST = publicRoute(async (req, headers) => {
  await takeRegistration(req, headers);
  const text = await readBodyText(req, OAUTH_BODY_LIMIT_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthError("invalid_client_metadata", "The body must be a JSON object of client metadata.");
  }
  return json(201, await registerClient(body), headers);
});

export const dynamic = "force-dynamic";
