// RFC 9728 protected resource metadata (the root form; /mcp's own is under .../mcp). Public, limited per IP.
import { protectedResourceMetadata } from "@/lib/oauth/config";
import { publicRoute } from "@/lib/oauth/public-route";

export const GET = publicRoute(async () => protectedResourceMetadata());

export const dynamic = "force-dynamic";
