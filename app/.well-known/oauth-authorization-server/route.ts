// RFC 8414 authorization server metadata (public, limited per IP).
import { authorizationServerMetadata } from "@/lib/oauth/config";
import { publicRoute } from "@/lib/oauth/public-route";

export const GET = publicRoute(async () => authorizationServerMetadata());

export const dynamic = "force-dynamic";
