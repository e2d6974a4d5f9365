// RFC 7009 token revocation (public, limited per IP): 200 whether or not the token was known.
import { originOf } from "@/lib/accounts/activity";
import { clientIp } from "@/lib/http/client-ip";
import { publicRoute, readForm } from "@/lib/oauth/public-route";
import { revokeToken } from "@/lib/oauth/revoke-token";

export const POST = publicRoute(async (req) => {
  await revokeToken(await readForm(req), originOf(req.headers, clientIp(req)));
  return {};
});

export const dynamic = "force-dynamic";
