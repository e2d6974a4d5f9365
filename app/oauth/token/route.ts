// OAuth 2.1 token endpoint (public, limited per IP): authorization_code and refresh_token grants.
import { publicRoute, readForm } from "@/lib/oauth/public-route";
import { tokenEndpoint } from "@/lib/oauth/token-endpoint";

export const POST = publicRoute(async (req) => tokenEndpoint(await readForm(req)));

export const dynamic = "force-dynamic";
